/*
 * The kyc module's front door (docs/architecture.md "The API"): identity levels (DECISIONS §19). Other modules
 * ask `requireKycLevel` in the transaction of the move it guards (trading, withdrawals, the bank account check)
 * and read the verified name through `verifiedNameOf`; app.ts registers the routes.
 */
export { grantKycLevel } from './grant.ts';
export { kycLevelOf, requireKycLevel, verifiedNameOf } from './levels.ts';
export { kycOpsRoutes } from './ops-routes.ts';
export { purgeKycOf } from './repo.ts';
export { default as kycRoutes } from './routes.ts';
