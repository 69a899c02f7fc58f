import type { OrderHistoryItem } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorListQueryOptions } from './cursor-page';

/** GET /my/buy-history: the member's buy orders, newest first, cursor pages. */
export const purchaseHistoryQueryOptions = () =>
  cursorListQueryOptions<OrderHistoryItem>(['my-buy'], '/my/buy-history');

export function usePurchaseHistory() {
  return useInfiniteQuery(purchaseHistoryQueryOptions());
}
