import { type Coin, LIVE_ORDER_STATUSES, nextListingStatus, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { account, post } from '../../ledger/index.ts';

/**
 * Row-locked listing access and the escrow movements of DECISIONS §4 shared by listings and buy orders.
 * Lock order everywhere: the listing row first, then its order rows, so two transitions never deadlock.
 */

/** Reads a listing under SELECT ... FOR UPDATE; undefined when absent (or not the given seller's). */
export async function lockListing(tx: Tx, listingId: number, sellerId?: number) {
  let q = tx.selectFrom('sell_listings').selectAll().where('id', '=', listingId);
  if (sellerId !== undefined) q = q.where('seller_id', '=', sellerId);
  return q.forUpdate().executeTakeFirst();
}

export type LockedListing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;

/** Moves `units` of a seller's escrow back to their available balance under ledger ref `ref`. */
export async function releaseEscrow(
  tx: Tx,
  sellerId: number,
  coin: Coin,
  units: bigint,
  ref: string,
): Promise<void> {
  if (units === 0n) return;
  await post(tx, {
    ref,
    kind: 'escrow_release',
    postings: [
      { account: account.escrow(sellerId, coin), amount: -units },
      { account: account.available(sellerId, coin), amount: units },
    ],
  });
}

/**
 * Ends a locked active listing as CLOSED (action 'close' by its seller, 'autoClose' when exhausted):
 * the part not held by live orders (remainingQty) returns escrow -> available and remainingQty becomes 0,
 * so a closed listing holds nothing (live orders keep their own quantity in escrow).
 * Throws 409 INVALID_STATE when the state machine refuses.
 */
export async function closeLocked(tx: Tx, l: LockedListing, action: 'close' | 'autoClose'): Promise<void> {
  const next = nextListingStatus(l.status, action);
  if (next === null) throw new AppError('INVALID_STATE');
  await releaseEscrow(tx, l.seller_id, l.coin, toUnits(l.remaining_qty), `listing:${l.id}:close`);
  await tx
    .updateTable('sell_listings')
    .set({ status: next, remaining_qty: '0', closed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', l.id)
    .execute();
}

/**
 * After any order transition (DECISIONS §4): an OPEN or PAUSED listing whose remainingQty is below minQty
 * and that has no live (REQUESTED, PAID, DISPUTED) order closes itself and the rest returns to the seller. While orders
 * are live it stays OPEN (a cancel may make it sellable again) but the trade list hides it.
 */
export async function autoCloseIfExhausted(tx: Tx, listingId: number): Promise<void> {
  const l = await lockListing(tx, listingId);
  if (!l || nextListingStatus(l.status, 'autoClose') === null) return;
  if (toUnits(l.remaining_qty) >= toUnits(l.min_qty)) return;
  const live = await tx
    .selectFrom('buy_orders')
    .select('id')
    .where('listing_id', '=', listingId)
    .where('status', 'in', LIVE_ORDER_STATUSES)
    .limit(1)
    .executeTakeFirst();
  if (!live) await closeLocked(tx, l, 'autoClose');
}
