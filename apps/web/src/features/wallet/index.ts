/** The wallet feature's public surface for other features (my page wallet tab, purchase, sell). */

export { useCreateWallet } from './api/create-wallet';
export { useWallets, walletsQueryOptions } from './api/get-wallets';
export { useWonValues, wonValueOf } from './won-value';
