/*
 * The wallets module's front door: wallets and deposit addresses, transfers, deposits credited from a chain,
 * the delivery rows of a completed order, and its operator routes. Other modules import only this file.
 */
export {
  creditAssignedDeposit,
  recordSeenDeposit,
  rewindChainDeposits,
  settleChainDeposits,
  walletsByAddresses,
  walletsByDestinationTags,
} from './chain-deposits.ts';
export { recordDelivery } from './deliveries.ts';
export { assertExternalDeliveryAllowed } from './holds.ts';
export { walletOpsRoutes } from './ops-routes.ts';
export { disableWalletsOf } from './repo.ts';
export { purgeTravelRulesOf } from './repo-travel-rule.ts';
export { default as walletRoutes } from './routes.ts';
export {
  createWallet,
  creditDeposit,
  findActiveWallet,
  listWallets,
  ownActiveWallet,
  type WalletRow,
} from './service.ts';
export { travelRulesById } from './travel-rule.ts';
