import type { BuyOrderDetail } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** GET /my/buy-history/{id}: the buyer's receipt of one order. */
export function getBuyOrder(orderId: number) {
  return api.get<BuyOrderDetail>(`/my/buy-history/${orderId}`);
}
