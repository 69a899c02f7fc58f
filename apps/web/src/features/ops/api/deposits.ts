import type { OpsDeposit, OpsDepositBody } from '@p2p/contract';
import { opsApi } from './client';

/**
 * POST /ops/api/v1/deposits {coinCode, address, amount, txid, index}: credits an on-chain deposit to the
 * wallet owning `address` (DECISIONS §5). Idempotent on coin + txid + index: `created` false = seen before.
 */
export function creditDeposit(body: OpsDepositBody) {
  return opsApi.post<OpsDeposit>('/ops/api/v1/deposits', body, { idempotent: true });
}
