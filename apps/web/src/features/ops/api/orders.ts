import type { opsOrder } from '@p2p/contract';
import type { OrderStatus } from '@p2p/contract/enums.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

export type OpsOrder = z.infer<typeof opsOrder>;

export interface OrderFilter {
  status?: OrderStatus;
  /** Buyer or seller id. */
  memberId?: number;
}

/** The key every page of the order list starts with (what a live event makes stale). */
export const opsOrdersKey = [...opsQueryRoot, 'orders'] as const;

/** GET /ops/api/v1/orders?status=&memberId= (DECISIONS §10). */
export const opsOrdersQueryOptions = (filter: OrderFilter, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsOrdersKey, filter.status ?? 'ALL', filter.memberId ?? 0, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsOrder>>('/ops/api/v1/orders', {
        query: {
          status: filter.status,
          memberId: filter.memberId,
          cursor,
          size: OPS_PAGE_SIZE,
        },
      }),
    placeholderData: keepPreviousData,
  });

export function useOpsOrders(filter: OrderFilter, cursor: string | undefined) {
  return useQuery(opsOrdersQueryOptions(filter, cursor));
}

/** POST /ops/api/v1/orders/{id}/cancel {reason}: REQUESTED -> CANCELED, quantity back (DECISIONS §4). */
export function cancelOrder(id: number, reason: string) {
  return opsApi.post<OpsOrder>(`/ops/api/v1/orders/${id}/cancel`, { reason }, { idempotent: true });
}

/** POST /ops/api/v1/orders/{id}/complete {reason, txid}: REQUESTED -> COMPLETED, coins released. */
export function completeOrder(id: number, reason: string, txid: string) {
  return opsApi.post<OpsOrder>(`/ops/api/v1/orders/${id}/complete`, { reason, txid }, { idempotent: true });
}
