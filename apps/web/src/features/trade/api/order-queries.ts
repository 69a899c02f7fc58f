import { queryOptions } from '@tanstack/react-query';
import { getBuyOrder } from './get-buy-order';
import { getSellOrder } from './get-sell-order';

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
