import type { SellListingDetail, SellListingEditBody } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * PATCH /api/v1/sell-listings/{id}: the seller's new price and quantities of an active listing, with the
 * step-up (DECISIONS §13); the escrow follows maxQty, and a price far from the market goes back to review.
 */
export function editListing(listingId: number, body: SellListingEditBody) {
  return api.patch<SellListingDetail>(`/api/v1/sell-listings/${listingId}`, body, { idempotent: true });
}
