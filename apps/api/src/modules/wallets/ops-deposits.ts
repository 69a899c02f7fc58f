import type { OpsDeposit } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { audit } from '../audit/index.ts';
import { creditDeposit, type DepositInput } from './service.ts';

/**
 * POST /ops/api/v1/deposits (DECISIONS §5, §10): credits the deposit and writes the audit record in the
 * same transaction. A repeat of coin + txid + index answers the first deposit and records nothing.
 */
export async function opsCreditDeposit(db: Db, operatorId: number, input: DepositInput): Promise<OpsDeposit> {
  return inTx(db, async (tx) => {
    const { transfer: t, created } = await creditDeposit(tx, input);
    if (created) {
      await audit(tx, {
        operatorId,
        action: 'deposit.credit',
        targetType: 'deposit',
        targetId: t.id,
        data: {
          coin: t.coin,
          walletId: t.wallet_id,
          amount: qty(t.amount),
          txid: t.txid,
          index: t.chain_index,
          destinationTag: input.destinationTag ?? null,
        },
      });
    }
    return {
      transferId: t.id,
      walletId: t.wallet_id,
      memberId: t.member_id,
      coinCode: t.coin,
      address: t.address,
      amount: qty(t.amount),
      txid: t.txid ?? '',
      index: t.chain_index ?? 0,
      status: t.status,
      createdAt: t.created_at.toISOString(),
      created,
    };
  });
}
