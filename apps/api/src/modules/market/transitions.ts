import { fromUnits, nextOrderStatus, type OrderStatus, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../http/errors.ts';
import { account, post } from '../../ledger/index.ts';
import { audit } from '../ops/audit.ts';
import { autoCloseIfExhausted, type LockedListing, lockListing, releaseEscrow } from './escrow.ts';
import { tradeFee } from './trade-fee.ts';

/** Who acts on an order: its buyer, its seller, or an operator (any order, audited with a reason). */
export type OrderActor =
  | { kind: 'buyer'; memberId: number }
  | { kind: 'seller'; memberId: number }
  | { kind: 'operator'; operatorId: number; reason: string };

type OrderAction = 'cancel' | 'reject' | 'complete';

async function lockOrder(tx: Tx, orderId: number) {
  return tx.selectFrom('buy_orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
}
type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/**
 * Runs one order transition in one transaction (DECISIONS §4): the listing row is locked first, then the
 * order (one lock order everywhere); an order not the actor's is 404 ORDER_NOT_FOUND and changes nothing;
 * nextOrderStatus decides, else 409 INVALID_STATE; `move` does the ledger side; then the listing may
 * close itself. Operator actions are audited in the same transaction.
 */
async function transition(
  db: Db,
  orderId: number,
  actor: OrderActor,
  action: OrderAction,
  move: (tx: Tx, o: LockedOrder, l: LockedListing, to: OrderStatus) => Promise<void>,
): Promise<void> {
  await inTx(db, async (tx) => {
    const pre = await tx
      .selectFrom('buy_orders')
      .select(['listing_id', 'buyer_id', 'seller_id'])
      .where('id', '=', orderId)
      .executeTakeFirst();
    const mine =
      pre !== undefined &&
      (actor.kind === 'operator' ||
        (actor.kind === 'buyer' ? pre.buyer_id : pre.seller_id) === actor.memberId);
    if (!pre || !mine) throw new AppError('ORDER_NOT_FOUND');
    const listing = await lockListing(tx, pre.listing_id);
    const order = await lockOrder(tx, orderId);
    if (!listing || !order) throw new AppError('ORDER_NOT_FOUND');
    const to = nextOrderStatus(order.status, action);
    if (to === null) throw new AppError('INVALID_STATE');
    await move(tx, order, listing, to);
    if (actor.kind === 'operator') {
      await audit(tx, {
        operatorId: actor.operatorId,
        action: `order.${action}`,
        targetType: 'order',
        targetId: orderId,
        reason: actor.reason,
      });
    }
    await autoCloseIfExhausted(tx, listing.id);
  });
}

/**
 * Ends a REQUESTED order without delivery (buyer cancel -> CANCELED, seller reject -> REJECTED, operator
 * cancel -> CANCELED): the quantity returns to the listing's remainingQty while the listing is active,
 * else (closed or rejected listing) escrow -> the seller's available. 404 / 409 INVALID_STATE.
 */
export async function endOrder(db: Db, orderId: number, actor: OrderActor, action: 'cancel' | 'reject') {
  await transition(db, orderId, actor, action, async (tx, o, l, to) => {
    const units = toUnits(o.request_qty);
    if (l.status === 'OPEN' || l.status === 'PAUSED' || l.status === 'PENDING_REVIEW') {
      await tx
        .updateTable('sell_listings')
        .set({ remaining_qty: fromUnits(toUnits(l.remaining_qty) + units), updated_at: sql<Date>`now()` })
        .where('id', '=', l.id)
        .execute();
    } else {
      await releaseEscrow(tx, o.seller_id, o.coin, units, `order:${o.id}:release`);
    }
    await tx
      .updateTable('buy_orders')
      .set({
        status: to,
        reason: actor.kind === 'operator' ? actor.reason : null,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', o.id)
      .execute();
  });
}

/**
 * Completes a REQUESTED order with the seller's TxID (DECISIONS §4): INTERNAL = escrow(seller) ->
 * available(buyer) at once, with COMPLETED WITHDRAW/DEPOSIT transfer rows on both wallets; EXTERNAL =
 * escrow(seller) -> withdrawal_pending with a PENDING external WITHDRAW on the seller's wallet that the
 * operator sends or rejects (refund to the buyer). The buyer pays the trade fee (DECISIONS §3, `feeBps`
 * basis points of requestQty, rounded down): it goes to the fees account and the delivery is requestQty
 * minus the fee; the order stores it as fee_qty. Ledger ref `order:<id>:complete`. 404 / 409 INVALID_STATE.
 */
export async function completeOrder(
  db: Db,
  orderId: number,
  actor: OrderActor,
  txid: string,
  feeBps: number,
) {
  await transition(db, orderId, actor, 'complete', async (tx, o, l, to) => {
    const units = toUnits(o.request_qty);
    const fee = tradeFee(units, feeBps);
    const internal = o.dest_type === 'INTERNAL';
    const postings = [
      { account: account.escrow(o.seller_id, o.coin), amount: -units },
      {
        account: internal ? account.available(o.buyer_id, o.coin) : account.withdrawalPending(o.coin),
        amount: units - fee,
      },
    ];
    if (fee > 0n) postings.push({ account: account.fees(o.coin), amount: fee });
    await post(tx, {
      ref: `order:${o.id}:complete`,
      kind: internal ? 'trade' : 'trade_withdrawal',
      postings,
    });
    await tx
      .updateTable('buy_orders')
      .set({
        status: to,
        txid,
        fee_qty: fromUnits(fee),
        reason: actor.kind === 'operator' ? actor.reason : null,
        completed_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', o.id)
      .execute();
    await deliveryTransfers(tx, o, l, { amount: fromUnits(units - fee), fee: fromUnits(fee) });
  });
}

/** The delivered quantity and the trade fee kept from it, decimal strings. */
type Delivery = { amount: string; fee: string };

async function deliveryTransfers(tx: Tx, o: LockedOrder, l: LockedListing, d: Delivery): Promise<void> {
  const internal = o.dest_type === 'INTERNAL';
  const withdraw = await tx
    .insertInto('transfers')
    .values({
      wallet_id: l.wallet_id,
      member_id: o.seller_id,
      coin: o.coin,
      type: 'WITHDRAW',
      dest_type: o.dest_type,
      status: internal ? 'COMPLETED' : 'PENDING',
      address: o.dest_address,
      amount: d.amount,
      fee: d.fee,
      txid: null,
      chain_index: null,
      counterpart_id: null,
      buy_order_id: o.id,
      refund_member_id: internal ? null : o.buyer_id,
      reason: null,
      processed_by: null,
      completed_at: internal ? sql<Date>`now()` : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!internal || o.dest_wallet_id === null) return;
  const seller = await tx
    .selectFrom('wallets')
    .select('address')
    .where('id', '=', l.wallet_id)
    .executeTakeFirstOrThrow();
  const deposit = await tx
    .insertInto('transfers')
    .values({
      wallet_id: o.dest_wallet_id,
      member_id: o.buyer_id,
      coin: o.coin,
      type: 'DEPOSIT',
      dest_type: 'INTERNAL',
      status: 'COMPLETED',
      address: seller.address,
      amount: d.amount,
      fee: d.fee,
      txid: null,
      chain_index: null,
      counterpart_id: withdraw.id,
      buy_order_id: o.id,
      refund_member_id: null,
      reason: null,
      processed_by: null,
      completed_at: sql<Date>`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .updateTable('transfers')
    .set({ counterpart_id: deposit.id })
    .where('id', '=', withdraw.id)
    .execute();
}
