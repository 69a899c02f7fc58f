import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import type { OpsOrder } from './orders';
import { opsQueryRoot } from './query-root';

/** The key every page of the dispute queue starts with (what a live event makes stale). */
export const disputeQueueKey = [...opsQueryRoot, 'disputes'] as const;

/** The key every page of one order's page starts with (what a live event makes stale). */
export const opsOrderKey = [...opsQueryRoot, 'order'] as const;

/**
 * GET /ops/api/v1/orders?status=DISPUTED: the dispute queue (DECISIONS §11), oldest dispute first, with
 * both statements and the time waiting. Refreshed every 30 s, so a new dispute appears by itself.
 */
export const disputeQueueQueryOptions = (cursor: string | undefined) =>
  queryOptions({
    queryKey: [...disputeQueueKey, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsOrder>>('/ops/api/v1/orders', {
        query: { status: 'DISPUTED', cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

export function useDisputeQueue(cursor: string | undefined) {
  return useQuery(disputeQueueQueryOptions(cursor));
}

/** GET /ops/api/v1/orders/{id}: one order with both parties, the clock and the dispute. */
export const opsOrderQueryOptions = (orderId: number) =>
  queryOptions({
    queryKey: [...opsOrderKey, orderId],
    queryFn: () => opsApi.get<OpsOrder>(`/ops/api/v1/orders/${orderId}`),
    retry: false,
  });

export function useOpsOrder(orderId: number) {
  return useQuery(opsOrderQueryOptions(orderId));
}
