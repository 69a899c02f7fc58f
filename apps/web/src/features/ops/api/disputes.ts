import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import type { OpsOrder } from './orders';

/**
 * GET /ops/api/v1/orders?status=DISPUTED: the dispute queue (DECISIONS §11), oldest dispute first, with
 * both statements and the time waiting. Refreshed every 30 s, so a new dispute appears by itself.
 */
export function useDisputeQueue(cursor: string | undefined) {
  return useQuery({
    queryKey: ['ops', 'disputes', cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsOrder>>('/ops/api/v1/orders', {
        query: { status: 'DISPUTED', cursor, size: OPS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** GET /ops/api/v1/orders/{id}: one order with both parties, the clock and the dispute. */
export function useOpsOrder(orderId: number) {
  return useQuery({
    queryKey: ['ops', 'order', orderId],
    queryFn: () => opsApi.get<OpsOrder>(`/ops/api/v1/orders/${orderId}`),
    retry: false,
  });
}
