import {
  type BuyOrderDisputeBody,
  fromUnits,
  nextOrderStatus,
  type OrderAction,
  type OrderStatus,
  toUnits,
} from '@p2p/contract';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { movements, post } from '../../ledger/index.ts';
import { audit } from '../audit/index.ts';
import { type LockedListing, lockListing, recordEnding } from '../listings/index.ts';
import { recordDelivery } from '../wallets/index.ts';
import { autoCloseIfExhausted, returnQuantity } from './escrow.ts';
import {
  addDisputeStatement,
  completeOrderRow,
  endOrderRow,
  escalateOrder,
  expireOrder,
  type LockedOrder,
  lockOrder,
  markOrderPaid,
  openDispute,
  orderParties,
} from './repo.ts';
import type { OrderParty } from './tables.ts';
import { tradeFee } from './trade-fee.ts';

/**
 * Order transitions (DECISIONS §4, §11). Every move runs in one transaction that locks the listing row,
 * then the order row (one lock order everywhere, so two moves never deadlock), settles a deadline that has
 * passed (the timer's move wins over any party's: past paymentDeadline the order is EXPIRED, past
 * releaseDeadline it is DISPUTED), asks the contract's transition table, then writes the state change,
 * its ledger entry, the seller's stats and (operators) the audit record together.
 */

/** Who acts on an order: its buyer, its seller, an operator (any order, audited), or the server's timers. */
export type OrderActor =
  | { kind: 'buyer'; memberId: number }
  | { kind: 'seller'; memberId: number }
  | { kind: 'operator'; operatorId: number; reason: string }
  | { kind: 'system' };

const partyOf = (a: OrderActor): OrderParty =>
  a.kind === 'buyer'
    ? 'BUYER'
    : a.kind === 'seller'
      ? 'SELLER'
      : a.kind === 'operator'
        ? 'OPERATOR'
        : 'SYSTEM';

/** What a step inside the locked transaction decided: nothing to report, or an error to answer after commit. */
type Outcome = AppError | null;

/**
 * Runs `step` on the locked order in one transaction. A non-party is 404 ORDER_NOT_FOUND and changes
 * nothing. A due deadline is settled first; when `step` then refuses (returns an AppError), the settlement
 * still commits and the error is thrown afterwards, so a late action loses to the timer and says so.
 */
async function onLockedOrder(
  db: Db,
  orderId: number,
  actor: OrderActor,
  step: (tx: Tx, o: LockedOrder, l: LockedListing) => Promise<Outcome>,
): Promise<void> {
  const failure = await inTx(db, async (tx) => {
    const pre = await orderParties(tx, orderId);
    const mine =
      pre !== undefined &&
      (actor.kind === 'operator' ||
        actor.kind === 'system' ||
        (actor.kind === 'buyer' ? pre.buyer_id : pre.seller_id) === actor.memberId);
    if (!pre || !mine) throw new AppError('ORDER_NOT_FOUND');
    const listing = await lockListing(tx, pre.listing_id);
    let order = await lockOrder(tx, orderId);
    if (!listing || !order) throw new AppError('ORDER_NOT_FOUND');
    if (await settleLocked(tx, order, listing)) order = await lockOrder(tx, orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND');
    const outcome = await step(tx, order, listing);
    await autoCloseIfExhausted(tx, listing.id);
    return outcome;
  });
  if (failure) throw failure;
}

/**
 * The timers' move on a locked order whose deadline has passed (DECISIONS §11): REQUESTED -> EXPIRED
 * (quantity back like a cancel; expiredAt = the deadline itself, whenever the timer runs) or PAID ->
 * DISPUTED (reason COINS_NOT_RELEASED, a system statement; disputedAt = the release deadline).
 * Returns true when it moved the order.
 */
async function settleLocked(tx: Tx, o: LockedOrder, l: LockedListing): Promise<boolean> {
  if (o.payment_due) {
    const to = nextOrderStatus(o.status, 'expire', 'system');
    if (to === null) return false;
    await returnQuantity(tx, o, l);
    await expireOrder(tx, o, to);
    return true;
  }
  if (o.release_due && o.release_deadline && o.paid_at) {
    const to = nextOrderStatus(o.status, 'escalate', 'system');
    if (to === null) return false;
    const paidAt = new Date(o.paid_at).toISOString();
    const deadline = new Date(o.release_deadline).toISOString();
    const statement = `The buyer reported the payment at ${paidAt}; the seller did not release the coins by the release deadline ${deadline}.`;
    await escalateOrder(tx, o, to, 'COINS_NOT_RELEASED', statement);
    return true;
  }
  return false;
}

/**
 * Settles one order if its deadline has passed (the timers and every read of it; DECISIONS §11). With
 * `skipLocked` (the interval timer) an order or listing another transaction holds is left for the next
 * round instead of waited for. Returns true when this call moved the order: exactly one caller ever does,
 * because the move happens under the order's row lock after re-reading its state.
 */
export async function settleOrder(db: Db, orderId: number, skipLocked = false): Promise<boolean> {
  return inTx(db, async (tx) => {
    const pre = await orderParties(tx, orderId);
    if (!pre) return false;
    const listing = await lockListing(tx, pre.listing_id, undefined, skipLocked);
    if (!listing) return false;
    const order = await lockOrder(tx, orderId, skipLocked);
    if (!order) return false;
    const moved = await settleLocked(tx, order, listing);
    if (moved) await autoCloseIfExhausted(tx, listing.id);
    return moved;
  });
}

async function auditIfOperator(
  tx: Tx,
  actor: OrderActor,
  action: OrderAction,
  orderId: number,
  from: string,
) {
  if (actor.kind !== 'operator') return;
  await audit(tx, {
    operatorId: actor.operatorId,
    action: `order.${action}`,
    targetType: 'order',
    targetId: orderId,
    reason: actor.reason,
    data: { from },
  });
}

function decide(o: LockedOrder, action: OrderAction, actor: OrderActor): OrderStatus | AppError {
  return nextOrderStatus(o.status, action, actor.kind) ?? new AppError('INVALID_STATE');
}

/**
 * Ends an order without delivery (DECISIONS §11): buyer cancel (REQUESTED or PAID) -> CANCELED, seller
 * reject (REQUESTED only) -> REJECTED, operator cancel (REQUESTED, PAID or DISPUTED) -> CANCELED. The
 * quantity returns to the listing's remainingQty while the listing is active, else escrow -> the seller's
 * available (ledger ref `order:<id>:release`). 404 ORDER_NOT_FOUND / 409 INVALID_STATE.
 */
export async function endOrder(db: Db, orderId: number, actor: OrderActor, action: 'cancel' | 'reject') {
  await onLockedOrder(db, orderId, actor, async (tx, o, l) => {
    const to = decide(o, action, actor);
    if (to instanceof AppError) return to;
    await returnQuantity(tx, o, l);
    await endOrderRow(tx, o.id, to, partyOf(actor), actor.kind === 'operator' ? actor.reason : null);
    if (to === 'REJECTED') await recordEnding(tx, o.seller_id, false, { kind: 'failed' });
    await auditIfOperator(tx, actor, action, o.id, o.status);
    return null;
  });
}

/**
 * The buyer says the won is sent (DECISIONS §11): REQUESTED -> PAID; paidAt = now, releaseDeadline = now +
 * `releaseWindowSec`, the buyer may dispute from now + `disputeAfterSec`. Nothing moves in the ledger.
 * 404 ORDER_NOT_FOUND / 409 INVALID_STATE (also when the payment window has passed: the order expired).
 */
export async function markPaid(
  db: Db,
  orderId: number,
  buyerId: number,
  w: { releaseWindowSec: number; disputeAfterSec: number },
): Promise<void> {
  const actor: OrderActor = { kind: 'buyer', memberId: buyerId };
  await onLockedOrder(db, orderId, actor, async (tx, o) => {
    const to = decide(o, 'paid', actor);
    if (to instanceof AppError) return to;
    await markOrderPaid(tx, o.id, to, w);
    return null;
  });
}

/**
 * Opens a dispute (DECISIONS §11): PAID -> DISPUTED by the seller at any time, by the buyer from
 * disputeOpensAt on (422 DISPUTE_TOO_EARLY {from} before). While DISPUTED, the party that has not yet
 * stated adds their statement with the same call (the state stays); a second statement of the same party,
 * or any other state, is 409 INVALID_STATE. 404 ORDER_NOT_FOUND for non-parties.
 */
export async function disputeOrder(
  db: Db,
  orderId: number,
  actor: { kind: 'buyer' | 'seller'; memberId: number },
  body: BuyOrderDisputeBody,
): Promise<void> {
  const column = actor.kind === 'buyer' ? 'buyer_statement' : 'seller_statement';
  await onLockedOrder(db, orderId, actor, async (tx, o) => {
    if (o.status === 'DISPUTED') {
      if (o[column] !== null) return new AppError('INVALID_STATE');
      await addDisputeStatement(tx, o.id, column, body.statement);
      return null;
    }
    const to = decide(o, 'dispute', actor);
    if (to instanceof AppError) return to;
    if (actor.kind === 'buyer' && !o.dispute_open) {
      const from = o.dispute_opens_at === null ? null : new Date(o.dispute_opens_at).toISOString();
      return new AppError('DISPUTE_TOO_EARLY', { from });
    }
    await openDispute(tx, o.id, to, actor.kind === 'buyer' ? 'BUYER' : 'SELLER', column, body);
    return null;
  });
}

/**
 * Completes an order with the seller's TxID (DECISIONS §4, §11): the seller from REQUESTED or PAID, an
 * operator also from DISPUTED (release to the buyer). INTERNAL = escrow(seller) -> available(buyer) at
 * once, with COMPLETED WITHDRAW/DEPOSIT transfer rows on both wallets; EXTERNAL = escrow(seller) ->
 * withdrawal_pending with a PENDING external WITHDRAW on the seller's wallet that the operator sends or
 * rejects (refund to the buyer). The buyer pays the trade fee (DECISIONS §3, `feeBps` basis points of
 * requestQty, rounded down): it goes to the fees account and the delivery is requestQty minus the fee;
 * the order stores it as fee_qty. Ledger ref `order:<id>:complete`. 404 / 409 INVALID_STATE.
 */
export async function completeOrder(
  db: Db,
  orderId: number,
  actor: OrderActor,
  txid: string,
  feeBps: number,
) {
  await onLockedOrder(db, orderId, actor, async (tx, o, l) => {
    const to = decide(o, 'complete', actor);
    if (to instanceof AppError) return to;
    const units = toUnits(o.request_qty);
    const fee = tradeFee(units, feeBps);
    const internal = o.dest_type === 'INTERNAL';
    await post(
      tx,
      movements.tradeDelivery({
        orderId: o.id,
        sellerId: o.seller_id,
        buyerId: o.buyer_id,
        coin: o.coin,
        units,
        fee,
        internal,
      }),
    );
    const releaseSec = await completeOrderRow(tx, o.id, {
      to,
      txid,
      feeQty: fromUnits(fee),
      by: partyOf(actor),
      reason: actor.kind === 'operator' ? actor.reason : null,
    });
    await recordDelivery(tx, {
      orderId: o.id,
      coin: o.coin,
      sellerId: o.seller_id,
      sellerWalletId: l.wallet_id,
      buyerId: o.buyer_id,
      destType: o.dest_type,
      destWalletId: o.dest_wallet_id,
      destAddress: o.dest_address,
      amount: fromUnits(units - fee),
      fee: fromUnits(fee),
    });
    await recordEnding(
      tx,
      o.seller_id,
      true,
      actor.kind === 'seller' ? { kind: 'released', releaseSec } : { kind: 'failed' },
    );
    await auditIfOperator(tx, actor, 'complete', o.id, o.status);
    return null;
  });
}
