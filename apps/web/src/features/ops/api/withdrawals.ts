import type { OpsWithdrawal } from '@p2p/contract';
import type { TransferStatus } from '@p2p/contract/enums.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';

/** GET /ops/api/v1/withdrawals?status= : external withdrawals, oldest first (DECISIONS §5, §10). */
export function useOpsWithdrawals(status: TransferStatus, cursor: string | undefined) {
  return useQuery({
    queryKey: ['ops', 'withdrawals', status, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsWithdrawal>>('/ops/api/v1/withdrawals', {
        query: { status, cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST /ops/api/v1/withdrawals/{id}/complete {txid}: the coins were sent on chain. */
export function completeWithdrawal(id: number, txid: string) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/complete`, { txid }, { idempotent: true });
}

/** POST /ops/api/v1/withdrawals/{id}/reject {reason}: the amount (and fee) goes back to refundMemberId. */
export function rejectWithdrawal(id: number, reason: string) {
  return opsApi.post<OpsWithdrawal>(`/ops/api/v1/withdrawals/${id}/reject`, { reason }, { idempotent: true });
}
