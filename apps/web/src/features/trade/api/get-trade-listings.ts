import type { Coin, ListingSort, Page, TradeListing } from '@p2p/contract';
import { LIMITS } from '@p2p/contract/limits.ts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A keyset page (SPEC §3 "List responses"): the contract's one declaration, re-exported for this feature. */
export type { Page } from '@p2p/contract';

/** GET /api/v1/sell-listings (SPEC §7): 20 per page, opaque cursor, coin filter (all = none), sort. */
export function getTradeListings(coin: Coin | 'all', sort: ListingSort, cursor?: string) {
  return api.get<Page<TradeListing>>('/api/v1/sell-listings', {
    query: { size: LIMITS.listPageSize, cursor, coin: coin === 'all' ? undefined : coin, sort },
  });
}

/** The key every coin and sort of the trade list starts with (what an order or a pause makes stale). */
export const tradeListingsKey = ['trade-listings'] as const;

/** The trade list as an infinite query; the next page param is the server's nextCursor. */
export function tradeListingsQueryOptions(coin: Coin | 'all', sort: ListingSort) {
  return infiniteQueryOptions({
    queryKey: [...tradeListingsKey, coin, sort],
    queryFn: ({ pageParam }) => getTradeListings(coin, sort, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useTradeListings(coin: Coin | 'all', sort: ListingSort) {
  return useInfiniteQuery(tradeListingsQueryOptions(coin, sort));
}
