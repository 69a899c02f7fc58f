import type { OpsSummary } from '@p2p/contract';
import { useQuery } from '@tanstack/react-query';
import { opsApi } from './client';

/** GET /ops/api/v1/summary: counts waiting for an operator; refreshed every 30 s and after each action. */
export function useOpsSummary() {
  return useQuery({
    queryKey: ['ops', 'summary'],
    queryFn: () => opsApi.get<OpsSummary>('/ops/api/v1/summary'),
    refetchInterval: 30_000,
  });
}
