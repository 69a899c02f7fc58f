import type { MySellListing } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorListQueryOptions } from './cursor-page';

/** GET /my/sell: the member's sell listings in every status. */
export const sellRegistrationsQueryOptions = () =>
  cursorListQueryOptions<MySellListing>(['my-sell'], '/my/sell');

export function useSellRegistrations() {
  return useInfiniteQuery(sellRegistrationsQueryOptions());
}
