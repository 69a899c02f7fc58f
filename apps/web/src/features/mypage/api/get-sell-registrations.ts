import type { MySellListing } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorList } from './cursor-page';

/** GET /my/sell: the member's sell listings in every status. */
export function useSellRegistrations() {
  return useInfiniteQuery(cursorList<MySellListing>('my-sell', '/my/sell'));
}
