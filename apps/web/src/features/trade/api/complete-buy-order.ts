import type { SellOrderDetail, StepUp } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /buy-orders/{id}/complete: the seller completes a REQUESTED order with the TxID (already trimmed) and
 * the step-up of DECISIONS §13 (the password). Throws STEP_UP_REQUIRED, INVALID_CREDENTIALS, RATE_LIMITED, ...
 */
export function completeBuyOrder(orderId: number, txid: string, stepUp: StepUp) {
  return api.post<SellOrderDetail>(`/buy-orders/${orderId}/complete`, { txid, stepUp }, { idempotent: true });
}
