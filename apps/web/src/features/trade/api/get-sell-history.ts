import type { OrderHistoryItem } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorListQueryOptions } from './cursor-page';

/** GET /my/sell-history: buy orders placed on the member's listings (buyerNickname filled). */
export const sellHistoryQueryOptions = () =>
  cursorListQueryOptions<OrderHistoryItem>(['my-sell-history'], '/my/sell-history');

export function useSellHistory() {
  return useInfiniteQuery(sellHistoryQueryOptions());
}
