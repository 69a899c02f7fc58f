import {
  fromUnits,
  nextListingStatus,
  type SellListingCreateBody,
  type SellListingDetail,
  toUnits,
} from '@p2p/contract';
import { sql } from 'kysely';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError, pgCode, pgConstraint } from '../../http/errors.ts';
import { account, post } from '../../ledger/index.ts';
import { audit } from '../ops/audit.ts';
import { ownActiveWallet } from '../wallets/service.ts';
import { closeLocked, lockListing, releaseEscrow } from './escrow.ts';
import { listingWithSeller, toListingDetail } from './views.ts';

/** The seller's view of one listing, or 404 LISTING_NOT_FOUND (also when it is another member's). */
export async function listingDetail(
  db: DbOrTx,
  listingId: number,
  sellerId?: number,
): Promise<SellListingDetail> {
  let q = listingWithSeller(db).where('l.id', '=', listingId);
  if (sellerId !== undefined) q = q.where('l.seller_id', '=', sellerId);
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('LISTING_NOT_FOUND');
  return toListingDetail(row);
}

/**
 * Creates a sell listing in PENDING_REVIEW (DECISIONS §4): the caller's ACTIVE wallet (else 404
 * WALLET_NOT_FOUND) fixes the coin; maxQty moves available -> escrow in the same transaction (422
 * INSUFFICIENT_BALANCE); a second active listing of the coin is refused by the partial unique index
 * (409 DUPLICATE_SELLER). Quantities are decimal strings, unitPriceKrw whole won. Also the demo seed's entry.
 */
export async function createListing(
  db: Db,
  sellerId: number,
  input: SellListingCreateBody,
): Promise<SellListingDetail> {
  return inTx(db, async (tx) => {
    const wallet = await ownActiveWallet(tx, sellerId, input.walletId);
    const maxUnits = toUnits(input.maxQty);
    const id = await insertListing(tx, sellerId, wallet, input);
    await post(tx, {
      ref: `listing:${id}:escrow`,
      kind: 'escrow_hold',
      postings: [
        { account: account.available(sellerId, wallet.coin), amount: -maxUnits },
        { account: account.escrow(sellerId, wallet.coin), amount: maxUnits },
      ],
    });
    return listingDetail(tx, id);
  });
}

async function insertListing(
  tx: Tx,
  sellerId: number,
  wallet: { id: number; coin: 'BTC' | 'ETH' | 'XRP' | 'TRX' },
  input: SellListingCreateBody,
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

/** Operator approval (DECISIONS §4, §8): PENDING_REVIEW -> OPEN, audited. 404 / 409 INVALID_STATE. */
export async function approveListing(
  db: Db,
  operatorId: number,
  listingId: number,
): Promise<SellListingDetail> {
  return inTx(db, async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l) throw new AppError('LISTING_NOT_FOUND');
    const next = nextListingStatus(l.status, 'approve');
    if (next === null) throw new AppError('INVALID_STATE');
    await tx
      .updateTable('sell_listings')
      .set({ status: next, updated_at: sql<Date>`now()` })
      .where('id', '=', l.id)
      .execute();
    await audit(tx, { operatorId, action: 'listing.approve', targetType: 'listing', targetId: l.id });
    return listingDetail(tx, l.id);
  });
}

/**
 * Operator rejection with a reason (DECISIONS §4, §8): PENDING_REVIEW -> REJECTED, the whole escrow
 * (maxQty: no order can exist before approval) back to available, audited. 404 / 409 INVALID_STATE.
 */
export async function rejectListing(
  db: Db,
  operatorId: number,
  listingId: number,
  reason: string,
): Promise<SellListingDetail> {
  return inTx(db, async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l) throw new AppError('LISTING_NOT_FOUND');
    const next = nextListingStatus(l.status, 'reject');
    if (next === null) throw new AppError('INVALID_STATE');
    await releaseEscrow(tx, l.seller_id, l.coin, toUnits(l.remaining_qty), `listing:${l.id}:reject`);
    await tx
      .updateTable('sell_listings')
      .set({
        status: next,
        reject_reason: reason,
        remaining_qty: '0',
        closed_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', l.id)
      .execute();
    await audit(tx, { operatorId, action: 'listing.reject', targetType: 'listing', targetId: l.id, reason });
    return listingDetail(tx, l.id);
  });
}

/**
 * The seller closes their listing (any active state -> CLOSED): remainingQty returns escrow -> available;
 * quantities of REQUESTED orders stay in escrow until those orders end. Another member's id: 404.
 */
export async function closeListing(db: Db, sellerId: number, listingId: number): Promise<SellListingDetail> {
  return inTx(db, async (tx) => {
    const l = await lockListing(tx, listingId, sellerId);
    if (!l) throw new AppError('LISTING_NOT_FOUND');
    await closeLocked(tx, l, 'close');
    return listingDetail(tx, l.id);
  });
}
