/*
 * The kyc module's front door (docs/architecture.md "The API"): identity levels (DECISIONS §19). Other modules
 * ask `requireKycLevel` in the transaction of the move it guards (trading, withdrawals, the bank account check)
 * and read the verified name through `verifiedNameOf`; app.ts registers the routes.
 */
export { kycLevelOf, requireKycLevel, verifiedNameOf } from './levels.ts';
