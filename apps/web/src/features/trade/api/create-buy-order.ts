import type { BuyOrderCreateBody, BuyOrderCreated } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /buy-orders (SPEC §7, DECISIONS §4, §10): succeeds only within 5 minutes of the member's purchase
 * phone check; the server recomputes requestQty (QTY_MISMATCH otherwise). The answer carries the seller's
 * bank details for the deposit.
 */
export function createBuyOrder(body: BuyOrderCreateBody) {
  return api.post<BuyOrderCreated>('/buy-orders', body, { idempotent: true });
}
