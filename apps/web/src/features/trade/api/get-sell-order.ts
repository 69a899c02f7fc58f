import type { SellOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** GET /my/sell-history/{id}: the seller's receipt of an order on their listing, with the buyer's details. */
export function getSellOrder(orderId: number) {
  return api.get<SellOrderDetail>(`/my/sell-history/${orderId}`);
}
