import type { opsLedgerCheck } from '@p2p/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsApi } from './client';
import { opsQueryRoot } from './query-root';

export type LedgerCheck = z.infer<typeof opsLedgerCheck>;

/**
 * GET /ops/api/v1/ledger/check: the last result of the ledger check job (issue 27, DECISIONS §4), one stored
 * row: cheap to read. While a full pass is asked for or running it is read again every 3 s for its progress.
 */
export const ledgerCheckQueryOptions = () =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'ledger-check'],
    queryFn: () => opsApi.get<LedgerCheck>('/ops/api/v1/ledger/check'),
    refetchInterval: (q) => (q.state.data?.fullRequested || q.state.data?.fullPass ? 3000 : false),
  });

export function useLedgerCheck() {
  return useQuery(ledgerCheckQueryOptions());
}

/** POST /ops/api/v1/ledger/check/full: asks the job for a full pass; answers the stored result. */
export function useRequestFullCheck() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => opsApi.post<LedgerCheck>('/ops/api/v1/ledger/check/full', {}),
    onSuccess: (data) => qc.setQueryData(ledgerCheckQueryOptions().queryKey, data),
  });
}
