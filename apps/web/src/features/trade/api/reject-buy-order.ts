import type { SellOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** POST /buy-orders/{id}/reject: the seller rejects a REQUESTED order (the sell-history cancel, DECISIONS §10). */
export function rejectBuyOrder(orderId: number) {
  return api.post<SellOrderDetail>(`/buy-orders/${orderId}/reject`, undefined, { idempotent: true });
}
