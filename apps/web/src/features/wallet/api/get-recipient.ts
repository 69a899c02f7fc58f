import type { Coin, TransferRecipient } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/**
 * GET /api/v1/transfer/recipient: the member (masked nickname, DECISIONS §10) an internal transfer of `coin`
 * to `address` (XRP's platform account: with `destTag`) would reach. Throws WALLET_NOT_FOUND (no member's
 * wallet there), SELF_TRANSFER, VALIDATION_FAILED {destTag}, RATE_LIMITED.
 */
export function getTransferRecipient(coin: Coin, address: string, destTag: number | null) {
  return api.get<TransferRecipient>('/api/v1/transfer/recipient', {
    query: { coinCode: coin, address, ...(destTag === null ? {} : { destTag }) },
  });
}
