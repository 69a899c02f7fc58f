import type { SellListingDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** GET /my/sell/{id}: the seller's receipt of one listing (404 for others' listings). */
export function getMySellListing(listingId: number) {
  return api.get<SellListingDetail>(`/my/sell/${listingId}`);
}
