import type { OpsCustodyCoin, OpsWithdrawal } from '@p2p/contract';
import type { WithdrawalStatus } from '@p2p/contract/enums.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

/** The key every page of the withdrawal queue starts with (what a live event makes stale). */
export const opsWithdrawalsKey = [...opsQueryRoot, 'withdrawals'] as const;

/** How often the queue refreshes by itself while open. */
export const WITHDRAWALS_REFRESH_MS = 10_000;

/** GET /ops/api/v1/withdrawals?status= : external withdrawals, oldest first (DECISIONS §5, §10). */
export const opsWithdrawalsQueryOptions = (status: WithdrawalStatus, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsWithdrawalsKey, status, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsWithdrawal>>('/ops/api/v1/withdrawals', {
        query: { status, cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    // the payout workers move withdrawals (sent, confirmed, failed) without an operator's event
    refetchInterval: WITHDRAWALS_REFRESH_MS,
  });

export function useOpsWithdrawals(status: WithdrawalStatus, cursor: string | undefined) {
  return useQuery(opsWithdrawalsQueryOptions(status, cursor));
}

/** POST /ops/api/v1/withdrawals/{id}/complete {txid}: the coins were sent on chain. */
export function completeWithdrawal(id: number, txid: string) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/complete`, { txid }, { idempotent: true });
}

/** POST /ops/api/v1/withdrawals/{id}/reject {reason}: the amount (and fee) goes back to refundMemberId. */
export function rejectWithdrawal(id: number, reason: string) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/reject`, { reason }, { idempotent: true });
}

/** POST /ops/api/v1/withdrawals/{id}/approve: the payout worker signs and sends it (DECISIONS §18). */
export function approveWithdrawal(id: number) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/approve`, undefined, { idempotent: true });
}

/** POST /ops/api/v1/withdrawals/{id}/retry: a FAILED one is paid again by a replacement (same inputs / nonce). */
export function retryWithdrawal(id: number) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/retry`, undefined, { idempotent: true });
}

/** How often the custody panel refreshes by itself: balances move on chain without a console event. */
export const CUSTODY_REFRESH_MS = 15_000;

/**
 * GET /ops/api/v1/chain/custody (DECISIONS §18): per coin the hot address and balance, the cold address and
 * balance, members' liabilities, the cold share against COLD_SHARE_MIN_PCT and the withdrawals waiting.
 * Under the withdrawals key, so an action on the queue refreshes it too.
 */
export const opsCustodyQueryOptions = () =>
  queryOptions({
    queryKey: [...opsWithdrawalsKey, 'custody'],
    queryFn: () => opsApi.get<OpsCustodyCoin[]>('/ops/api/v1/chain/custody'),
    refetchInterval: CUSTODY_REFRESH_MS,
  });

export function useOpsCustody() {
  return useQuery(opsCustodyQueryOptions());
}
