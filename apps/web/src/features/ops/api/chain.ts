import type { ChainStatus, OpsMemberDetail, UnmatchedPayment, UnmatchedStatus } from '@p2p/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

/** The key every chain query of the console starts with. */
export const opsChainKey = [...opsQueryRoot, 'chain'] as const;

/** How often the chain status panel refreshes by itself: the watchers move without any console event. */
export const CHAIN_STATUS_REFRESH_MS = 10_000;

/**
 * GET /ops/api/v1/chain/status (DECISIONS §17): per coin whether a node is configured, the scanned height
 * against the node's, the lag in blocks, the last scan and the last error.
 */
export const chainStatusQueryOptions = () =>
  queryOptions({
    queryKey: [...opsChainKey, 'status'],
    queryFn: () => opsApi.get<ChainStatus[]>('/ops/api/v1/chain/status'),
    refetchInterval: CHAIN_STATUS_REFRESH_MS,
  });

export function useChainStatus() {
  return useQuery(chainStatusQueryOptions());
}

/** GET /ops/api/v1/chain/unmatched?status= : payments to the platform that match no member, oldest first. */
export const unmatchedQueryOptions = (status: UnmatchedStatus, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsChainKey, 'unmatched', status, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<UnmatchedPayment>>('/ops/api/v1/chain/unmatched', {
        query: { status, cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: CHAIN_STATUS_REFRESH_MS,
  });

export function useUnmatchedPayments(status: UnmatchedStatus, cursor: string | undefined) {
  return useQuery(unmatchedQueryOptions(status, cursor));
}

/**
 * POST /ops/api/v1/chain/unmatched/{id}/assign {memberId, reason}: credits the payment to the member's wallet
 * of its coin, once (audit-logged). Throws ApiError: 404 WALLET_NOT_FOUND, 409 INVALID_STATE (decided, or still
 * confirming), 409 DUPLICATE_ENTRY.
 */
export function assignUnmatched(id: number, memberId: number, reason: string) {
  return opsApi.post<UnmatchedPayment>(
    `/ops/api/v1/chain/unmatched/${id}/assign`,
    { memberId, reason },
    { idempotent: true },
  );
}

/** POST /ops/api/v1/chain/unmatched/{id}/return {txid, reason}: records that it was sent back in `txid`. */
export function returnUnmatched(id: number, txid: string, reason: string) {
  return opsApi.post<UnmatchedPayment>(
    `/ops/api/v1/chain/unmatched/${id}/return`,
    { txid, reason },
    { idempotent: true },
  );
}

/** GET /ops/api/v1/members/{id}: the member's wallets, to show which one an assignment would credit. */
export function getOpsMember(id: number) {
  return opsApi.get<OpsMemberDetail>(`/ops/api/v1/members/${id}`);
}
