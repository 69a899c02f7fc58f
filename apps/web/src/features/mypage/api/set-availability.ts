import type { SellListingDetail } from '@p2p/contract';
import type { AvailabilityMove } from '@p2p/contract/enums.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { bestListingsQueryOptions } from '../../home/api/get-best-listings';
import { myListingQueryOptions, sellRegistrationsQueryOptions, tradeListingsKey } from '../../trade';

/**
 * POST /api/v1/sell-listings/{id}/pause or /resume: owner only (404 LISTING_NOT_FOUND otherwise), 409
 * INVALID_STATE from any other status. No money moves and the route takes no Idempotency-Key, so none is sent.
 */
export function setListingAvailability(listingId: number, move: AvailabilityMove) {
  return api.post<SellListingDetail>(`/api/v1/sell-listings/${listingId}/${move}`);
}

/**
 * Pauses or resumes one of the seller's listings; afterwards (also after a refusal, whose cause is usually a
 * status changed elsewhere) the seller's registrations, that listing's detail, the public trade list and the best prices reload.
 */
export function useListingAvailability() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, move }: { listingId: number; move: AvailabilityMove }) =>
      setListingAvailability(listingId, move),
    onSettled: (_data, _err, { listingId }) => {
      void qc.invalidateQueries({ queryKey: sellRegistrationsQueryOptions().queryKey });
      void qc.invalidateQueries({ queryKey: myListingQueryOptions(listingId).queryKey });
      void qc.invalidateQueries({ queryKey: tradeListingsKey });
      void qc.invalidateQueries({ queryKey: bestListingsQueryOptions().queryKey });
    },
  });
}
