import type {
  Coin,
  UnmatchedAssignBody,
  UnmatchedPayment,
  UnmatchedReturnBody,
  UnmatchedStatus,
} from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';
import { audit } from '../audit/index.ts';
import { creditAssignedDeposit, findActiveWallet } from '../wallets/index.ts';
import { countUnmatched, unmatchedPage, watcherStatusRows } from './queries.ts';
import { decideUnmatched, lockUnmatched, type UnmatchedRow } from './repo.ts';

/** Required confirmations per coin (CHAIN_CONFIRMATIONS_<COIN>). */
type Required = Record<Coin, number>;

/** Confirmations of a payment in block `blockHeight` with the coin's scanned height, capped at the required count. */
function confirmationsOf(scanned: number | null | undefined, blockHeight: number, required: number): number {
  if (scanned === null || scanned === undefined || scanned < blockHeight) return 0;
  return Math.min(required, scanned - blockHeight + 1);
}

function unmatchedOut(
  r: UnmatchedRow,
  scanned: number | null | undefined,
  required: Required,
): UnmatchedPayment {
  return {
    id: r.id,
    coinCode: r.coin,
    txid: r.txid,
    outputIndex: r.output_index,
    address: r.address,
    destinationTag: r.destination_tag === null ? null : Number(r.destination_tag),
    amount: qty(r.amount),
    blockHeight: Number(r.block_height),
    confirmations: confirmationsOf(scanned, Number(r.block_height), required[r.coin]),
    requiredConfirmations: required[r.coin],
    status: r.status,
    memberId: r.member_id,
    transferId: r.transfer_id,
    returnTxid: r.return_txid,
    reason: r.reason,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

async function scannedHeights(db: Db): Promise<Map<Coin, number | null>> {
  return new Map((await watcherStatusRows(db)).map((r) => [r.coin, r.height]));
}

/** GET /ops/api/v1/chain/unmatched (DECISIONS §17): the queue by status (and coin), oldest first. */
export async function listUnmatched(
  db: Db,
  required: Required,
  q: { status: UnmatchedStatus; coinCode?: Coin; size: number; cursor?: string },
) {
  const afterId = q.cursor
    ? decodeIdCursor(`unmatched:${q.status}:${q.coinCode ?? ''}`, q.cursor)
    : undefined;
  const rows = await unmatchedPage(db, { status: q.status, coin: q.coinCode, afterId, limit: q.size + 1 });
  const count = await countUnmatched(db, q.status, q.coinCode);
  const heights = await scannedHeights(db);
  return toPage(
    rows,
    q.size,
    count,
    (r) => unmatchedOut(r, heights.get(r.coin), required),
    (r) => encodeIdCursor(`unmatched:${q.status}:${q.coinCode ?? ''}`, r.id),
  );
}

/** The locked UNMATCHED payment `id`, or 404 NOT_FOUND / 409 INVALID_STATE {status} when decided already. */
async function lockUndecided(tx: Parameters<typeof lockUnmatched>[0], id: number): Promise<UnmatchedRow> {
  const row = await lockUnmatched(tx, id);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status !== 'UNMATCHED') throw new AppError('INVALID_STATE', { status: row.status });
  return row;
}

/**
 * POST /ops/api/v1/chain/unmatched/{id}/assign (DECISIONS §17): credits the payment to the member's ACTIVE wallet
 * of its coin, once: under the payment's row lock, a COMPLETED deposit row keyed like every deposit of that output
 * (so an operator's credit of the same output can never also happen), its ledger entry chain -> available, the
 * member's DEPOSIT_CREDITED notification and the audit record, in one transaction. Errors: 404 NOT_FOUND (no such
 * payment), 409 INVALID_STATE {status} (decided already; of concurrent calls exactly one wins), 409 INVALID_STATE
 * {reason: 'CONFIRMING'} (not yet at its confirmations), 404 WALLET_NOT_FOUND (the member has no active wallet of
 * the coin), 409 DUPLICATE_ENTRY (the output was credited some other way).
 */
export async function assignUnmatched(
  db: Db,
  required: Required,
  operatorId: number,
  id: number,
  body: UnmatchedAssignBody,
): Promise<UnmatchedPayment> {
  const heights = await scannedHeights(db);
  return inTx(db, async (tx) => {
    const row = await lockUndecided(tx, id);
    const need = required[row.coin];
    const blockHeight = Number(row.block_height);
    if (confirmationsOf(heights.get(row.coin), blockHeight, need) < need) {
      throw new AppError('INVALID_STATE', { reason: 'CONFIRMING' });
    }
    const wallet = await findActiveWallet(tx, body.memberId, row.coin);
    if (!wallet) throw new AppError('WALLET_NOT_FOUND');
    const transfer = await creditAssignedDeposit(tx, wallet, {
      coin: row.coin,
      txid: row.txid,
      index: row.output_index,
      amount: qty(row.amount),
      chainAmount: row.chain_amount,
      blockHeight,
      requiredConfirmations: need,
    });
    if (!transfer) throw new AppError('DUPLICATE_ENTRY');
    const decided = await decideUnmatched(tx, row.id, {
      status: 'ASSIGNED',
      memberId: body.memberId,
      transferId: transfer.id,
      reason: body.reason,
      decidedBy: operatorId,
    });
    await audit(tx, {
      operatorId,
      action: 'chain.unmatched.assign',
      targetType: 'chain_payment',
      targetId: row.id,
      reason: body.reason,
      data: {
        coin: row.coin,
        txid: row.txid,
        outputIndex: row.output_index,
        destinationTag: row.destination_tag,
        amount: qty(row.amount),
        memberId: body.memberId,
        walletId: wallet.id,
        transferId: transfer.id,
      },
    });
    return unmatchedOut(decided, heights.get(row.coin), required);
  });
}

/**
 * POST /ops/api/v1/chain/unmatched/{id}/return (DECISIONS §17): records that the payment was sent back to its
 * sender in chain transaction `txid` (sent outside this call), with the audit record; nothing is credited and
 * the ledger does not move (the payment never entered it). Errors: 404 NOT_FOUND, 409 INVALID_STATE {status}.
 */
export async function returnUnmatched(
  db: Db,
  required: Required,
  operatorId: number,
  id: number,
  body: UnmatchedReturnBody,
): Promise<UnmatchedPayment> {
  const heights = await scannedHeights(db);
  return inTx(db, async (tx) => {
    const row = await lockUndecided(tx, id);
    const decided = await decideUnmatched(tx, row.id, {
      status: 'RETURNED',
      returnTxid: body.txid,
      reason: body.reason,
      decidedBy: operatorId,
    });
    await audit(tx, {
      operatorId,
      action: 'chain.unmatched.return',
      targetType: 'chain_payment',
      targetId: row.id,
      reason: body.reason,
      data: {
        coin: row.coin,
        txid: row.txid,
        outputIndex: row.output_index,
        amount: qty(row.amount),
        returnTxid: body.txid,
      },
    });
    return unmatchedOut(decided, heights.get(row.coin), required);
  });
}
