import type { BuyOrderCreateBody, BuyOrderCreated, BuyOrderDetail, SellOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * Buy order calls (SPEC §7, DECISIONS §4, §10). Creation succeeds only within 5 minutes of the member's
 * purchase phone check; the server recomputes requestQty (QTY_MISMATCH otherwise).
 */
export function createBuyOrder(body: BuyOrderCreateBody) {
  return api.post<BuyOrderCreated>('/buy-orders', body);
}

/** The buyer cancels a REQUESTED order. */
export function cancelBuyOrder(orderId: number) {
  return api.post<BuyOrderCreated>(`/buy-orders/${orderId}/cancel`);
}

/** The seller rejects a REQUESTED order on their listing (the cancel of sell history, DECISIONS §10). */
export function rejectBuyOrder(orderId: number) {
  return api.post<SellOrderDetail>(`/buy-orders/${orderId}/reject`);
}

/** The seller completes a REQUESTED order with the TxID of the coins sent (trimmed by the caller). */
export function completeBuyOrder(orderId: number, txid: string) {
  return api.post<SellOrderDetail>(`/buy-orders/${orderId}/complete`, { txid });
}

export function getBuyOrder(orderId: number) {
  return api.get<BuyOrderDetail>(`/my/buy-history/${orderId}`);
}

export function getSellOrder(orderId: number) {
  return api.get<SellOrderDetail>(`/my/sell-history/${orderId}`);
}
