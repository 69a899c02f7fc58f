import type { SellOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** POST /buy-orders/{id}/complete: the seller completes a REQUESTED order with the TxID (already trimmed). */
export function completeBuyOrder(orderId: number, txid: string) {
  return api.post<SellOrderDetail>(`/buy-orders/${orderId}/complete`, { txid });
}
