import type { MySellListing, OrderHistoryItem } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

interface Page<T> {
  list: T[];
  nextCursor: string | null;
  totalCount: number;
}

function infinite<T>(key: string, path: string) {
  return {
    queryKey: [key],
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      api.get<Page<T>>(path, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
  };
}

/** GET /my/buy-history: the member's buy orders, newest first, cursor pages. */
export function usePurchaseHistory() {
  return useInfiniteQuery(infinite<OrderHistoryItem>('my-buy', '/my/buy-history'));
}

/** GET /my/sell: the member's sell listings (every status). */
export function useSellRegistrations() {
  return useInfiniteQuery(infinite<MySellListing>('my-sell', '/my/sell'));
}

/** GET /my/sell-history: buy orders placed on the member's listings (buyerNickname filled). */
export function useSellHistory() {
  return useInfiniteQuery(infinite<OrderHistoryItem>('my-sell-history', '/my/sell-history'));
}
