import type { CoinReserves, ReserveProofView } from '@p2p/contract/proof-of-reserves.ts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** GET /api/v1/reserves (DECISIONS §20): each coin's newest snapshot; public. */
export const reservesQueryOptions = () =>
  queryOptions({
    queryKey: ['reserves'],
    queryFn: () => api.get<CoinReserves[]>('/api/v1/reserves'),
    staleTime: 60_000,
  });

/** GET /api/v1/reserves/proof?coinCode=: the signed-in member's own leaf and path. */
export function fetchProof(coinCode: string): Promise<ReserveProofView> {
  return api.get<ReserveProofView>('/api/v1/reserves/proof', { query: { coinCode } });
}
