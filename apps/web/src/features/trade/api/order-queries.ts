import { queryOptions } from '@tanstack/react-query';
import { getBuyOrder } from './get-buy-order';
import { orderCountsQueryOptions } from './get-order-counts';
import { purchaseHistoryQueryOptions } from './get-purchase-history';
import { sellHistoryQueryOptions } from './get-sell-history';
import { getSellOrder } from './get-sell-order';
import { sellRegistrationsQueryOptions } from './get-sell-registrations';

/**
 * One order as its buyer or seller sees it, refreshed while the screen is open so the other party's move
 * (and the server's expiry) shows up without a reload. Invalidate through `queryKey` (DESIGN "requests").
 */
export const orderQueries = {
  all: ['order'] as const,
  buyer: (orderId: number) =>
    queryOptions({
      queryKey: [...orderQueries.all, 'buyer', orderId],
      queryFn: () => getBuyOrder(orderId),
      refetchInterval: 15_000,
      retry: false,
    }),
  seller: (orderId: number) =>
    queryOptions({
      queryKey: [...orderQueries.all, 'seller', orderId],
      queryFn: () => getSellOrder(orderId),
      refetchInterval: 15_000,
      retry: false,
    }),
};

/**
 * What an order's move makes stale for its parties (a protocol action, a new order, a live `order` event):
 * the order screens, both histories, the registrations (remaining quantity) and the waiting badge.
 */
export const orderViewKeys = () => [
  orderQueries.all,
  purchaseHistoryQueryOptions().queryKey,
  sellHistoryQueryOptions().queryKey,
  sellRegistrationsQueryOptions().queryKey,
  orderCountsQueryOptions().queryKey,
];
