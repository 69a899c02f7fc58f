import { type Coin, fromUnits, type ListingStatus, type SellListingCreateBody, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import type { Tx } from '../../db/client.ts';
import { AppError, pgCode, pgConstraint } from '../../errors/index.ts';

/**
 * The SQL that writes and locks the listings module's tables (`sell_listings`, `seller_stats`); the read
 * models are in queries.ts. Other modules (orders) and the pause routes lock and move listings only through these
 * functions. Quantities are decimal strings of the wire (8 decimals), prices whole won.
 */

/**
 * Reads a listing under SELECT ... FOR UPDATE; undefined when absent (or not the given seller's). With
 * `skipLocked` a row another transaction holds reads as absent (the order timers, DECISIONS §14).
 * Lock order everywhere: the listing row first, then its order rows, so two transitions never deadlock.
 */
export async function lockListing(tx: Tx, listingId: number, sellerId?: number, skipLocked = false) {
  let q = tx.selectFrom('sell_listings').selectAll().where('id', '=', listingId);
  if (sellerId !== undefined) q = q.where('seller_id', '=', sellerId);
  q = q.forUpdate();
  if (skipLocked) q = q.skipLocked();
  return q.executeTakeFirst();
}

/** A listing row read under its row lock (lockListing). */
export type LockedListing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;

/**
 * Inserts a PENDING_REVIEW listing on the seller's wallet `wallet` (its coin fixes the listing's) with
 * remainingQty = maxQty; returns its id. 409 DUPLICATE_SELLER when the seller already has an active listing
 * of the coin (the partial unique index `sell_listings_one_active_key`, DECISIONS §4).
 */
export async function insertListing(
  tx: Tx,
  sellerId: number,
  wallet: { id: number; coin: Coin },
  input: Omit<SellListingCreateBody, 'stepUp'>,
): Promise<number> {
  const maxQty = fromUnits(toUnits(input.maxQty));
  try {
    const row = await tx
      .insertInto('sell_listings')
      .values({
        seller_id: sellerId,
        wallet_id: wallet.id,
        coin: wallet.coin,
        min_qty: fromUnits(toUnits(input.minQty)),
        max_qty: maxQty,
        remaining_qty: maxQty,
        unit_price_krw: input.unitPriceKrw,
        bank_name: input.bankName,
        account_no: input.accountNo,
        reject_reason: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (err) {
    if (pgCode(err) === '23505' && pgConstraint(err) === 'sell_listings_one_active_key') {
      throw new AppError('DUPLICATE_SELLER');
    }
    throw err;
  }
}

/** Sets a locked listing's status (approve, pause, resume: nothing else changes). */
export async function setListingStatus(tx: Tx, listingId: number, status: ListingStatus): Promise<void> {
  await tx
    .updateTable('sell_listings')
    .set({ status, updated_at: sql<Date>`now()` })
    .where('id', '=', listingId)
    .execute();
}

/**
 * Ends a locked listing in `status` (the state machine's CLOSED or REJECTED, the latter with `rejectReason`):
 * remainingQty becomes 0 and closedAt now. The caller has released the escrow of the remainder first.
 */
export async function endListing(
  tx: Tx,
  listingId: number,
  status: ListingStatus,
  rejectReason?: string,
): Promise<void> {
  await tx
    .updateTable('sell_listings')
    .set({
      status,
      ...(rejectReason === undefined ? {} : { reject_reason: rejectReason }),
      remaining_qty: '0',
      closed_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', listingId)
    .execute();
}

/**
 * Takes `units` (base units of 1e-8) from an OPEN listing's remainingQty for a new buy order. The row lock
 * is taken by the update itself, which re-checks its conditions on the newest row version after waiting
 * (READ COMMITTED): one round trip under the lock instead of a locking read and an update. Returns false
 * when it matched nothing (not OPEN or not enough left; lockListing then says which).
 */
export async function takeListingQty(tx: Tx, listingId: number, units: bigint): Promise<boolean> {
  const take = sql<string>`${fromUnits(units)}::numeric`;
  const taken = await tx
    .updateTable('sell_listings')
    .set({ remaining_qty: sql<string>`remaining_qty - ${take}`, updated_at: sql<Date>`now()` })
    .where('id', '=', listingId)
    .where('status', '=', 'OPEN')
    .where('remaining_qty', '>=', take)
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Gives `units` back to a locked active listing's remainingQty (an order ended without delivery). */
export async function returnListingQty(tx: Tx, l: LockedListing, units: bigint): Promise<void> {
  await tx
    .updateTable('sell_listings')
    .set({ remaining_qty: fromUnits(toUnits(l.remaining_qty) + units), updated_at: sql<Date>`now()` })
    .where('id', '=', l.id)
    .execute();
}

/** One seller's stats row under its row lock, created empty first when absent (DECISIONS §11). */
export async function lockSellerStats(tx: Tx, sellerId: number): Promise<{ recent: unknown }> {
  await tx
    .insertInto('seller_stats')
    .values({ member_id: sellerId })
    .onConflict((oc) => oc.column('member_id').doNothing())
    .execute();
  return tx
    .selectFrom('seller_stats')
    .select('recent')
    .where('member_id', '=', sellerId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Writes a locked stats row: completedTrades + `addCompleted`, the new 30-day window `recent`. */
export async function writeSellerStats(
  tx: Tx,
  sellerId: number,
  addCompleted: number,
  recent: [number, number, number][],
): Promise<void> {
  await tx
    .updateTable('seller_stats')
    .set({
      completed_trades: sql<string>`completed_trades + ${addCompleted}`,
      recent: JSON.stringify(recent),
      updated_at: sql<Date>`now()`,
    })
    .where('member_id', '=', sellerId)
    .execute();
}

/**
 * The retention purge of one seller (DECISIONS §19): the pay-in account named on their ended listings is
 * emptied. The rows stay (orders and ledger refs point at them); the caller has checked none is active.
 */
export async function purgeListingAccountsOf(tx: Tx, sellerId: number): Promise<void> {
  await tx
    .updateTable('sell_listings')
    .set({ bank_name: '', account_no: '' })
    .where('seller_id', '=', sellerId)
    .where('status', 'in', ['CLOSED', 'REJECTED'])
    .execute();
}
