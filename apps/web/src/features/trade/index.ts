/** The trade feature's public surface for other features (the my page tabs, the console's dispute page). */

export { myListingQueryOptions } from './api/get-my-listing';
export { useOrderCounts } from './api/get-order-counts';
export { usePurchaseHistory } from './api/get-purchase-history';
export { useSellHistory } from './api/get-sell-history';
export { sellRegistrationsQueryOptions, useSellRegistrations } from './api/get-sell-registrations';
export { tradeListingsKey } from './api/get-trade-listings';
/** The order chat panel, also shown in the console's dispute page (DECISIONS §12). */
export type { ChatClient } from './api/order-messages';
export { chatQueries } from './api/order-messages';
export { OrderChat } from './components/OrderChat';
export { type DetailType, StatusBadge } from './components/StatusBadge';
