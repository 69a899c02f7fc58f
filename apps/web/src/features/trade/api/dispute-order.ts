import type { BuyOrderDetail, BuyOrderDisputeBody, SellOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /buy-orders/{id}/dispute {reason, statement} (DECISIONS §11): a party opens a dispute from PAID
 * (the buyer only from disputeOpensAt: DISPUTE_TOO_EARLY {from}), or adds their statement while DISPUTED.
 */
export function disputeOrder(orderId: number, body: BuyOrderDisputeBody) {
  return api.post<BuyOrderDetail | SellOrderDetail>(`/buy-orders/${orderId}/dispute`, body, {
    idempotent: true,
  });
}
