import {
  type Coin,
  type OpsDeposit,
  type OpsWithdrawal,
  type Page,
  toUnits,
  type WithdrawalStatus,
} from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';
import { movements, post } from '../../ledger/index.ts';
import { audit } from '../audit/index.ts';
import {
  countWithdrawals,
  lockWithdrawal,
  updateWithdrawal,
  type WithdrawalRow,
  withdrawalById,
  withdrawalsOfStatus,
} from './repo-transfers.ts';
import { creditDeposit, type DepositInput } from './service.ts';
import { travelRulesById } from './travel-rule.ts';

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

function withdrawalOut(r: WithdrawalRow): OpsWithdrawal {
  return {
    withdrawalId: r.id,
    memberId: r.member_id,
    loginId: r.login_id,
    coinCode: r.coin,
    amount: qty(r.amount),
    fee: qty(r.fee),
    address: r.address,
    destTag: r.dest_tag,
    status: r.status,
    txid: r.txid,
    reason: r.reason,
    buyOrderId: r.buy_order_id,
    refundMemberId: r.refund_member_id ?? r.member_id,
    createdAt: r.created_at.toISOString(),
    completedAt: r.completed_at ? r.completed_at.toISOString() : null,
  };
}

/** GET /ops/api/v1/withdrawals: external withdrawals of a status, oldest first (the operator's queue). */
export async function listWithdrawals(
  db: Db,
  q: { status: WithdrawalStatus; size: number; cursor?: string },
): Promise<Page<OpsWithdrawal>> {
  const afterId = q.cursor ? decodeIdCursor('withdrawals', q.cursor) : undefined;
  const rows = await withdrawalsOfStatus(db, q.status, afterId, q.size + 1);
  const count = await countWithdrawals(db, q.status);
  const travel = await travelRulesById(
    db,
    rows.map((r) => r.id),
  );
  const out = (r: WithdrawalRow) => ({ ...withdrawalOut(r), travelRule: travel.get(r.id) ?? null });
  return toPage(rows, q.size, count, out, (r) => encodeIdCursor('withdrawals', r.id));
}

type Decision = { kind: 'complete'; txid: string } | { kind: 'reject'; reason: string };

/**
 * Marks a PENDING external withdrawal sent (withdrawal_pending -> chain, txid stored) or rejects it
 * (withdrawal_pending -> available of refund_member_id ?? member_id, the withdrawal fee back too; a buy
 * order's trade fee stays in fees), with the audit record in the same transaction (DECISIONS §3, §5, §8).
 * Buy-order deliveries are such rows as well.
 * Errors: 404 NOT_FOUND, 409 INVALID_STATE when the withdrawal is no longer PENDING.
 */
export async function decideWithdrawal(
  db: Db,
  operatorId: number,
  id: number,
  decision: Decision,
): Promise<OpsWithdrawal> {
  return inTx(db, async (tx) => {
    const w = await lockWithdrawal(tx, id);
    if (!w) throw new AppError('NOT_FOUND');
    if (w.status !== 'PENDING') throw new AppError('INVALID_STATE');
    const coin: Coin = w.coin;
    const units = toUnits(qty(w.amount));
    // a buy order delivery's fee is the trade fee, earned by the completed trade: the reject keeps it
    const fee = w.buy_order_id === null ? toUnits(qty(w.fee)) : 0n;
    const refundTo = w.refund_member_id ?? w.member_id;
    if (decision.kind === 'complete') {
      await post(tx, movements.withdrawalComplete({ transferId: w.id, coin, units }));
    } else {
      await post(
        tx,
        movements.withdrawalReject({ transferId: w.id, refundMemberId: refundTo, coin, units, fee }),
      );
    }
    await updateWithdrawal(tx, w.id, {
      status: decision.kind === 'complete' ? 'COMPLETED' : 'REJECTED',
      txid: decision.kind === 'complete' ? decision.txid : w.txid,
      reason: decision.kind === 'reject' ? decision.reason : w.reason,
      processed_by: operatorId,
      completed_at: new Date(),
    });
    await audit(tx, {
      operatorId,
      action: decision.kind === 'complete' ? 'withdrawal.complete' : 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: w.id,
      reason: decision.kind === 'reject' ? decision.reason : null,
      data:
        decision.kind === 'complete'
          ? { txid: decision.txid, coin, amount: qty(w.amount) }
          : { refundMemberId: refundTo, coin, amount: qty(w.amount), fee: qty(w.fee) },
    });
    return withdrawalOut(await withdrawalById(tx, w.id));
  });
}
