import type { opsLedgerCheck } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsApi } from './client';
import { opsQueryRoot } from './query-root';

export type LedgerCheck = z.infer<typeof opsLedgerCheck>;

/**
 * GET /ops/api/v1/ledger/check: runs the invariants of DECISIONS §4 on demand (never on its own: it reads
 * every account). `refetch()` runs it again.
 */
export const ledgerCheckQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'ledger-check'],
    queryFn: () => opsApi.get<LedgerCheck>('/ops/api/v1/ledger/check'),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export function useLedgerCheck(enabled: boolean) {
  return useQuery(ledgerCheckQueryOptions(enabled));
}
