/** The trade feature's public surface for other features (the my page history tabs). */
export { formatDateTime } from './components/Receipts';
export { type DetailType, StatusBadge } from './components/StatusBadge';
export { tradeErrorText } from './error-text';
