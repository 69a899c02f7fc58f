import type { OrderHistoryItem } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorList } from './cursor-page';

/** GET /my/sell-history: buy orders placed on the member's listings (buyerNickname filled). */
export function useSellHistory() {
  return useInfiniteQuery(cursorList<OrderHistoryItem>('my-sell-history', '/my/sell-history'));
}
