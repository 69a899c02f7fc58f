import type { TradeListing } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/sell-listings/best: the popular listings of the home carousel (a list or `{list}`). */
export async function getBestListings(): Promise<TradeListing[]> {
  const data = await api.get<TradeListing[] | { list?: TradeListing[] }>('/api/v1/sell-listings/best');
  return Array.isArray(data) ? data : (data?.list ?? []);
}

export const bestListingsQueryOptions = () =>
  queryOptions({ queryKey: ['best'], queryFn: getBestListings, staleTime: 30_000 });

export function useBestListings() {
  return useQuery(bestListingsQueryOptions());
}
