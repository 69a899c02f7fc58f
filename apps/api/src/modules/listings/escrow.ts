import { nextListingStatus, toUnits } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { type ListingRelease, movements, post } from '../../ledger/index.ts';
import { endListing, type LockedListing } from './repo.ts';

/**
 * The listing side of the escrow (DECISIONS §4): a seller's coins given back when a listing ends (the hold
 * is posted by createListing). The orders module calls closeLocked; it never posts listing refs itself.
 */

/**
 * A listing ends (`why`: operator reject or seller/auto close): its remainingQty, the part not held by live
 * orders, moves escrow -> the seller's available (movements.listingEscrowRelease). Nothing left posts nothing.
 */
export async function releaseListingEscrow(tx: Tx, l: LockedListing, why: ListingRelease): Promise<void> {
  const units = toUnits(l.remaining_qty);
  if (units === 0n) return;
  await post(
    tx,
    movements.listingEscrowRelease({ listingId: l.id, why, sellerId: l.seller_id, coin: l.coin, units }),
  );
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
  await releaseListingEscrow(tx, l, 'close');
  await endListing(tx, l.id, next);
}
