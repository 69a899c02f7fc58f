/*
 * The bank module's front door (DECISIONS §19): the 1원 bank-account check, the member's verified account,
 * the listing's payout check, the verified name (a stand-in until the kyc module's). Other modules import
 * only this file.
 */
export { verifiedNameOf } from './queries.ts';
export { purgeBankOf } from './repo.ts';
export { default as bankRoutes } from './routes.ts';
export { assertPayoutAccount, sameName, seedVerifiedAccount } from './service.ts';
