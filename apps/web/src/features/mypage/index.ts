/** The /myinfo tab contents (SPEC §2). Each tab is a slot component. */

export { useOrderCounts } from '../trade';
export { WaitingBadge } from './components/WaitingBadge';
export { PurchaseHistoryTab } from './tabs/PurchaseHistoryTab';
export { SellHistoryTab } from './tabs/SellHistoryTab';
export { SellRegistrationsTab } from './tabs/SellRegistrationsTab';
export { WalletTab } from './tabs/WalletTab';
