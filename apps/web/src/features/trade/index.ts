/** The trade feature's public surface for other features (the my page history tabs). */

/** The order chat panel, also shown in the console's dispute page (DECISIONS §12). */
export type { ChatClient } from './api/order-messages';
export { OrderChat } from './components/OrderChat';
export { type DetailType, StatusBadge } from './components/StatusBadge';
