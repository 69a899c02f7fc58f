import type { OpsSummary } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { opsApi } from './client';
import { opsQueryRoot } from './query-root';

/** GET /ops/api/v1/summary: counts waiting for an operator; refreshed every 30 s and after each action. */
export const opsSummaryQueryOptions = () =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'summary'],
    queryFn: () => opsApi.get<OpsSummary>('/ops/api/v1/summary'),
    refetchInterval: 30_000,
  });

export function useOpsSummary() {
  return useQuery(opsSummaryQueryOptions());
}
