import type { SellListingDetail } from '@p2p/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /my/sell/{id}: the seller's receipt of one listing (404 for others' listings). */
export function getMySellListing(listingId: number) {
  return api.get<SellListingDetail>(`/my/sell/${listingId}`);
}

/** The key of every listing detail of the seller. */
export const myListingKey = ['detail', 'sell-register'] as const;

/** The seller's listing detail screen (/view_details?type=sell-register); a refusal is not retried. */
export const myListingQueryOptions = (listingId: number) =>
  queryOptions({
    queryKey: [...myListingKey, listingId],
    queryFn: () => getMySellListing(listingId),
    retry: false,
  });
