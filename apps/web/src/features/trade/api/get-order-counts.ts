import type { MyOrderCounts } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /my/order-counts: orders waiting for the member (DECISIONS §11: the seller's badge). */
export function getOrderCounts() {
  return api.get<MyOrderCounts>('/my/order-counts');
}

export const orderCountsQueryOptions = () =>
  queryOptions({
    queryKey: ['order-counts'],
    queryFn: getOrderCounts,
    refetchInterval: 30_000,
    staleTime: 10_000,
  });

/** The counts while signed in (`enabled` false for visitors: no call, no badge). */
export function useOrderCounts(enabled = true) {
  return useQuery({ ...orderCountsQueryOptions(), enabled });
}
