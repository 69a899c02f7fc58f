import type { BuyOrderCreated } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** POST /buy-orders/{id}/cancel: the buyer cancels a REQUESTED order (before the bank deposit). */
export function cancelBuyOrder(orderId: number) {
  return api.post<BuyOrderCreated>(`/buy-orders/${orderId}/cancel`, undefined, { idempotent: true });
}
