import type { opsListing } from '@p2p/contract';
import type { ListingStatus } from '@p2p/contract/enums.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

export type OpsListing = z.infer<typeof opsListing>;

/** The key every page of the listing queue starts with (what a live event makes stale). */
export const opsListingsKey = [...opsQueryRoot, 'listings'] as const;

/** GET /ops/api/v1/listings?status=&cursor= (DECISIONS §10); status undefined = every status. */
export const opsListingsQueryOptions = (status: ListingStatus | undefined, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsListingsKey, status ?? 'ALL', cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsListing>>('/ops/api/v1/listings', {
        query: { status, cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

export function useOpsListings(status: ListingStatus | undefined, cursor: string | undefined) {
  return useQuery(opsListingsQueryOptions(status, cursor));
}

/** POST /ops/api/v1/listings/{id}/approve: PENDING_REVIEW -> OPEN (DECISIONS §4). */
export function approveListing(id: number) {
  return opsApi.post<OpsListing>(`/ops/api/v1/listings/${id}/approve`, undefined, { idempotent: true });
}

/** POST /ops/api/v1/listings/{id}/reject {reason}: -> REJECTED, escrow back to the seller (DECISIONS §4). */
export function rejectListing(id: number, reason: string) {
  return opsApi.post<OpsListing>(`/ops/api/v1/listings/${id}/reject`, { reason }, { idempotent: true });
}
