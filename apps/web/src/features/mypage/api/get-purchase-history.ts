import type { OrderHistoryItem } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorList } from './cursor-page';

/** GET /my/buy-history: the member's buy orders, newest first, cursor pages. */
export function usePurchaseHistory() {
  return useInfiniteQuery(cursorList<OrderHistoryItem>('my-buy', '/my/buy-history'));
}
