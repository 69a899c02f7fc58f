import {
  nextListingStatus,
  type SellListingCreateBody,
  type SellListingDetail,
  toUnits,
} from '@p2p/contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { movements, post } from '../../ledger/index.ts';
import { audit } from '../audit/index.ts';
import { ownActiveWallet } from '../wallets/index.ts';
import { closeLocked, releaseListingEscrow } from './escrow.ts';
import { listingWithSeller } from './queries.ts';
import { endListing, insertListing, lockListing, setListingStatus } from './repo.ts';
import { toListingDetail } from './views.ts';

/** What a listing is made of: the create body without the step-up that authorised it. */
export type ListingTerms = Omit<SellListingCreateBody, 'stepUp'>;

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
 * The member's step-up (DECISIONS §13) is the route's to check before calling this.
 */
export async function createListing(
  db: Db,
  sellerId: number,
  input: ListingTerms,
): Promise<SellListingDetail> {
  return inTx(db, async (tx) => {
    const wallet = await ownActiveWallet(tx, sellerId, input.walletId);
    const maxUnits = toUnits(input.maxQty);
    const id = await insertListing(tx, sellerId, wallet, input);
    await post(tx, movements.escrowHold({ listingId: id, sellerId, coin: wallet.coin, units: maxUnits }));
    return listingDetail(tx, id);
  });
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
    await setListingStatus(tx, l.id, next);
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
    await releaseListingEscrow(tx, l, 'reject');
    await endListing(tx, l.id, next, reason);
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
