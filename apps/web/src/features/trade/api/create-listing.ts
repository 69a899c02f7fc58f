import type { SellListingCreateBody, SellListingDetail } from '@p2p/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { walletsQueryOptions } from '../../wallet';
import { sellRegistrationsQueryOptions } from './get-sell-registrations';

/**
 * POST /api/v1/sell-listings with the member's `stepUp` (DECISIONS §13: 422 STEP_UP_REQUIRED without it, 400
 * INVALID_CREDENTIALS when wrong): escrows maxQty; 409 DUPLICATE_SELLER, 422 INSUFFICIENT_BALANCE (DECISIONS §4).
 */
export function createListing(body: SellListingCreateBody) {
  return api.post<SellListingDetail>('/api/v1/sell-listings', body, { idempotent: true });
}

/** Creates a listing and refreshes the wallets (escrow moved) and the member's registrations. */
export function useCreateListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: walletsQueryOptions().queryKey });
      void qc.invalidateQueries({ queryKey: sellRegistrationsQueryOptions().queryKey });
    },
  });
}
