/** The wallet feature's public surface for other features (my page wallet tab, purchase, sell). */
export { useCreateWallet, useWallets, walletsQueryKey } from './api/wallets';
