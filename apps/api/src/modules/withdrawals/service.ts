import { type Coin, type OpsWithdrawal, type Page, toUnits, type WithdrawalStatus } from '@p2p/contract';
import type { Db, Tx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';
import { movements, post } from '../../ledger/index.ts';
import { audit } from '../audit/index.ts';
import { notifyWithdrawal } from '../notifications/index.ts';
import { travelRulesById } from '../wallets/index.ts';
import {
  attemptsOf,
  countWithdrawalsCapped,
  lockWithdrawal,
  updateWithdrawal,
  type WithdrawalRow,
  withdrawalById,
  withdrawalsOfStatus,
} from './repo.ts';

/** EXPLORER_TX_URL_<COIN> per coin: a template with `{txid}`. */
export type ExplorerTemplates = Partial<Record<Coin, string>>;

/** The explorer link of `txid` on `coin`, or null without a txid or a template (DECISIONS §18). */
export function explorerUrl(templates: ExplorerTemplates, coin: Coin, txid: string | null): string | null {
  const t = templates[coin];
  return t && txid ? t.replaceAll('{txid}', encodeURIComponent(txid)) : null;
}

function withdrawalOut(r: WithdrawalRow, explorer: ExplorerTemplates): OpsWithdrawal {
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
    approvedAt: r.approved_at ? r.approved_at.toISOString() : null,
    approvedBy: r.approved_by,
    lastError: r.last_error,
    explorerUrl: explorerUrl(explorer, r.coin, r.txid),
    attempts: Number(r.attempts),
  };
}

async function shown(tx: Tx, id: number, explorer: ExplorerTemplates): Promise<OpsWithdrawal> {
  const row = await withdrawalById(tx, id);
  if (!row) throw new AppError('NOT_FOUND');
  return withdrawalOut(row, explorer);
}

/** GET /ops/api/v1/withdrawals: external withdrawals of a status, oldest first (the operator's queue). */
export async function listWithdrawals(
  db: Db,
  explorer: ExplorerTemplates,
  q: { status: WithdrawalStatus; size: number; cursor?: string },
): Promise<Page<OpsWithdrawal>> {
  const afterId = q.cursor ? decodeIdCursor('withdrawals', q.cursor) : undefined;
  const rows = await withdrawalsOfStatus(db, q.status, afterId, q.size + 1);
  const count = await countWithdrawalsCapped(db, q.status);
  // DECISIONS §19: the operator sees originator and beneficiary of a Travel Rule withdrawal.
  const travel = await travelRulesById(
    db,
    rows.map((r) => r.id),
  );
  return toPage(
    rows,
    q.size,
    count,
    (r) => ({ ...withdrawalOut(r, explorer), travelRule: travel.get(r.id) ?? null }),
    (r) => encodeIdCursor('withdrawals', r.id),
  );
}

/**
 * POST /ops/api/v1/withdrawals/{id}/approve (DECISIONS §18): PENDING -> APPROVED by operator `operatorId`, with
 * the audit record in the same transaction; the payout worker of the coin pays it next. Under the row lock, so
 * of parallel approvals exactly one wins; the others (and any later one) get 409 INVALID_STATE. A coin without
 * a payout worker is paid by hand (`complete`), so approving there is refused (409 INVALID_STATE).
 * Errors: 404 NOT_FOUND, 409 INVALID_STATE.
 */
export async function approveWithdrawal(
  db: Db,
  opts: { operatorId: number; id: number; payoutCoins: ReadonlySet<Coin>; explorer: ExplorerTemplates },
): Promise<OpsWithdrawal> {
  return inTx(db, async (tx) => {
    const w = await lockWithdrawal(tx, opts.id);
    if (!w) throw new AppError('NOT_FOUND');
    if (w.status !== 'PENDING' || !opts.payoutCoins.has(w.coin)) throw new AppError('INVALID_STATE');
    await updateWithdrawal(tx, w.id, {
      status: 'APPROVED',
      approved_by: opts.operatorId,
      approved_at: new Date(),
      last_error: null,
      next_try_at: null,
    });
    await audit(tx, {
      operatorId: opts.operatorId,
      action: 'withdrawal.approve',
      targetType: 'withdrawal',
      targetId: w.id,
      data: { coin: w.coin, amount: qty(w.amount), address: w.address },
    });
    return shown(tx, w.id, opts.explorer);
  });
}

/**
 * POST /ops/api/v1/withdrawals/{id}/retry (DECISIONS §18): a FAILED withdrawal goes back to APPROVED and the
 * payout worker pays it by a replacement of its failed attempt (`withdrawal:<id>:r<n>`, the same inputs or
 * nonce, so the two can never both confirm). Audited; one winner under the row lock.
 * Errors: 404 NOT_FOUND, 409 INVALID_STATE (not FAILED).
 */
export async function retryWithdrawal(
  db: Db,
  opts: { operatorId: number; id: number; explorer: ExplorerTemplates },
): Promise<OpsWithdrawal> {
  return inTx(db, async (tx) => {
    const w = await lockWithdrawal(tx, opts.id);
    if (!w) throw new AppError('NOT_FOUND');
    if (w.status !== 'FAILED') throw new AppError('INVALID_STATE');
    await updateWithdrawal(tx, w.id, { status: 'APPROVED', next_try_at: null });
    await audit(tx, {
      operatorId: opts.operatorId,
      action: 'withdrawal.retry',
      targetType: 'withdrawal',
      targetId: w.id,
      data: { coin: w.coin, amount: qty(w.amount), failedTxid: w.txid, lastError: w.last_error },
    });
    return shown(tx, w.id, opts.explorer);
  });
}

type Decision = { kind: 'complete'; txid: string } | { kind: 'reject'; reason: string };

/** Whether `decision` may be taken on a withdrawal in `status` with its newest attempt in `live`. */
function decidable(decision: Decision, status: WithdrawalStatus | string, live: boolean): boolean {
  if (decision.kind === 'complete') return status === 'PENDING';
  if (status === 'PENDING' || status === 'FAILED') return true;
  // APPROVED and not being paid (never tried, or a signer refusal removed the attempt).
  return status === 'APPROVED' && !live;
}

/**
 * Marks a PENDING external withdrawal sent by hand (withdrawal_pending -> chain, txid stored; the path of
 * coins without a node, DECISIONS §5) or rejects one that is PENDING, APPROVED and not being paid, or FAILED
 * (withdrawal_pending -> available of refund_member_id ?? member_id, the withdrawal fee back too; a buy order's
 * trade fee stays in fees), with the audit record in the same transaction (DECISIONS §3, §5, §8, §18). A
 * rejected FAILED withdrawal raises WITHDRAWAL_FAILED for the member.
 * Errors: 404 NOT_FOUND, 409 INVALID_STATE when the withdrawal cannot take the decision any more.
 */
export async function decideWithdrawal(
  db: Db,
  opts: { operatorId: number; id: number; decision: Decision; explorer: ExplorerTemplates },
): Promise<OpsWithdrawal> {
  const { decision } = opts;
  return inTx(db, async (tx) => {
    const w = await lockWithdrawal(tx, opts.id);
    if (!w) throw new AppError('NOT_FOUND');
    const newest = (await attemptsOf(tx, w.id))[0];
    const live = newest?.status === 'PREPARED' || newest?.status === 'BROADCAST';
    if (!decidable(decision, w.status, live)) throw new AppError('INVALID_STATE');
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
      processed_by: opts.operatorId,
      completed_at: new Date(),
    });
    if (decision.kind === 'reject' && w.status === 'FAILED') {
      await notifyWithdrawal(tx, w.member_id, 'WITHDRAWAL_FAILED', {
        transferId: w.id,
        walletId: w.wallet_id,
        coinCode: coin,
        amount: qty(w.amount),
        txid: w.txid,
      });
    }
    await audit(tx, {
      operatorId: opts.operatorId,
      action: decision.kind === 'complete' ? 'withdrawal.complete' : 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: w.id,
      reason: decision.kind === 'reject' ? decision.reason : null,
      data:
        decision.kind === 'complete'
          ? { txid: decision.txid, coin, amount: qty(w.amount) }
          : { refundMemberId: refundTo, coin, amount: qty(w.amount), fee: qty(w.fee), was: w.status },
    });
    return shown(tx, w.id, opts.explorer);
  });
}
