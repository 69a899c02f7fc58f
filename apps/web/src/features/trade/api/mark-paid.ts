import type { BuyOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /buy-orders/{id}/paid (DECISIONS §11): the buyer says the won is sent, REQUESTED -> PAID.
 * Throws INVALID_STATE when the order moved on (e.g. its payment window passed: EXPIRED).
 */
export function markPaid(orderId: number) {
  return api.post<BuyOrderDetail>(`/buy-orders/${orderId}/paid`, undefined, { idempotent: true });
}
