import { nextListingStatus, toUnits } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { movements, post } from '../../ledger/index.ts';
import { closeLocked, type LockedListing, lockListing, returnListingQty } from '../listings/index.ts';
import { hasLiveOrder, type LockedOrder } from './repo.ts';

/**
 * The order side of the escrow (DECISIONS §4, §11): an order holds its requestQty in the seller's escrow
 * from creation to its ending; the listing's own hold and release are the listings module's (listings/
 * escrow.ts), called from here.
 */

/**
 * The quantity of an order ending without delivery goes back to its active listing's remainingQty, else
 * (the listing closed meanwhile) escrow -> the seller's available under `order:<id>:release`.
 */
export async function returnQuantity(tx: Tx, o: LockedOrder, l: LockedListing): Promise<void> {
  const units = toUnits(o.request_qty);
  if (l.status === 'OPEN' || l.status === 'PAUSED' || l.status === 'PENDING_REVIEW') {
    await returnListingQty(tx, l, units);
  } else {
    await post(
      tx,
      movements.orderEscrowRelease({ orderId: o.id, sellerId: o.seller_id, coin: o.coin, units }),
    );
  }
}

/**
 * After any order transition (DECISIONS §4): an OPEN or PAUSED listing whose remainingQty is below minQty
 * and that has no live (REQUESTED, PAID, DISPUTED) order closes itself and the rest returns to the seller.
 * While orders are live it stays OPEN (a cancel may make it sellable again) but the trade list hides it.
 */
export async function autoCloseIfExhausted(tx: Tx, listingId: number): Promise<void> {
  const l = await lockListing(tx, listingId);
  if (!l || nextListingStatus(l.status, 'autoClose') === null) return;
  if (toUnits(l.remaining_qty) >= toUnits(l.min_qty)) return;
  if (!(await hasLiveOrder(tx, listingId))) await closeLocked(tx, l, 'autoClose');
}
