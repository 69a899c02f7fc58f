import { type Coin, nextListingStatus, toUnits } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { type EntryRef, entryRef } from '../../ledger/entries.ts';
import { account, post } from '../../ledger/index.ts';
import { endListing, type LockedListing } from './repo.ts';

/**
 * The listing side of the escrow (DECISIONS §4): a seller's coins held for a listing and given back when
 * it ends. The orders module calls releaseEscrow and closeLocked; it never posts listing refs itself.
 */

/** Moves `units` (base units of 1e-8) of a seller's available balance into escrow (422 INSUFFICIENT_BALANCE). */
export async function holdEscrow(tx: Tx, sellerId: number, coin: Coin, units: bigint, ref: EntryRef) {
  await post(tx, {
    ...ref,
    postings: [
      { account: account.available(sellerId, coin), amount: -units },
      { account: account.escrow(sellerId, coin), amount: units },
    ],
  });
}

/**
 * Moves `units` of a seller's escrow back to their available balance under the entry `ref` (a listing's
 * or an order's release, ledger/entries.ts). Zero units post nothing.
 */
export async function releaseEscrow(
  tx: Tx,
  sellerId: number,
  coin: Coin,
  units: bigint,
  ref: EntryRef,
): Promise<void> {
  if (units === 0n) return;
  await post(tx, {
    ...ref,
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
  const ref = entryRef.listingEscrowRelease(l.id, 'close');
  await releaseEscrow(tx, l.seller_id, l.coin, toUnits(l.remaining_qty), ref);
  await endListing(tx, l.id, next);
}
