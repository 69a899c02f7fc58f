/** The wallet feature's public surface for other features (my page wallet tab, purchase, sell). */

export { addressLooksValid } from '@p2p/contract/address-format.ts';
export { useCreateWallet } from './api/create-wallet';
export { useWallets, walletsQueryOptions } from './api/get-wallets';
export { holdingOf, useWonValues, wonValueOf } from './won-value';
