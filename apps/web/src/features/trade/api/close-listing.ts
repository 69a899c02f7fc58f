import type { SellListingDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** POST /api/v1/sell-listings/{id}/close: the seller cancels a listing; unallocated escrow returns (SPEC §4). */
export function closeListing(listingId: number) {
  return api.post<SellListingDetail>(`/api/v1/sell-listings/${listingId}/close`, undefined, {
    idempotent: true,
  });
}
