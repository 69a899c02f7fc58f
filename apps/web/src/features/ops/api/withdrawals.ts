import type { OpsWithdrawal } from '@p2p/contract';
import type { WithdrawalStatus } from '@p2p/contract/enums.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

/** The key every page of the withdrawal queue starts with (what a live event makes stale). */
export const opsWithdrawalsKey = [...opsQueryRoot, 'withdrawals'] as const;

/** GET /ops/api/v1/withdrawals?status= : external withdrawals, oldest first (DECISIONS §5, §10). */
export const opsWithdrawalsQueryOptions = (status: WithdrawalStatus, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsWithdrawalsKey, status, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsWithdrawal>>('/ops/api/v1/withdrawals', {
        query: { status, cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
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
