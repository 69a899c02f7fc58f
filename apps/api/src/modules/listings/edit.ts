import {
  ACTIVE_LISTING_STATUSES,
  type Coin,
  fromUnits,
  idParam,
  type ListingStatus,
  nextListingStatus,
  repriceNeedsReview,
  type SellListingDetail,
  sellListingDetail,
  sellListingEditBody,
  toUnits,
} from '@p2p/contract';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { movements, post } from '../../ledger/index.ts';
import { requireStepUp } from '../identity/index.ts';
import { marketPriceKrw } from '../prices/index.ts';
import { type LockedListing, lockListing } from './repo.ts';
import { ownListingCoin, writeListingEdit } from './repo-edit.ts';
import { listingDetail } from './service.ts';

/** The new terms of a listing: each value as it should now be (decimal strings, whole won). */
export interface ListingEdit {
  minQty: string;
  maxQty: string;
  unitPriceKrw: number;
}

/**
 * The status after a price edit: an OPEN or PAUSED listing whose price changed and now sits more than
 * REPRICE_REVIEW_PCT from the market (or with no market price known) goes back to PENDING_REVIEW through the
 * state machine's 'review'; anything else keeps its status (quantities alone never need a review).
 */
function statusAfterEdit(l: LockedListing, unitPriceKrw: number, marketKrw: number | null): ListingStatus {
  if (unitPriceKrw === l.unit_price_krw || !repriceNeedsReview(unitPriceKrw, marketKrw)) return l.status;
  return nextListingStatus(l.status, 'review') ?? l.status;
}

/**
 * Applies an edit to a locked active listing (DECISIONS §4): what orders hold (maxQty - remainingQty) stays,
 * so remainingQty = new maxQty - held (422 INSUFFICIENT_LISTING_QTY when the new maxQty is below it); the
 * change of maxQty moves available <-> escrow in one ledger entry (movements.listingEscrowAdjust, ref
 * `listing:<id>:edit:<n>`; 422 INSUFFICIENT_BALANCE when the seller lacks the extra coins).
 */
async function applyEdit(tx: Tx, l: LockedListing, edit: ListingEdit, status: ListingStatus): Promise<void> {
  const held = toUnits(l.max_qty) - toUnits(l.remaining_qty);
  const newMax = toUnits(edit.maxQty);
  if (newMax - held < 0n) throw new AppError('INSUFFICIENT_LISTING_QTY');
  const change = newMax - toUnits(l.max_qty);
  const qtyEdits = change === 0n ? l.qty_edits : l.qty_edits + 1;
  if (change !== 0n) {
    await post(
      tx,
      movements.listingEscrowAdjust({
        listingId: l.id,
        edit: qtyEdits,
        sellerId: l.seller_id,
        coin: l.coin,
        units: change,
      }),
    );
  }
  await writeListingEdit(tx, l.id, {
    minQty: fromUnits(toUnits(edit.minQty)),
    maxQty: fromUnits(newMax),
    remainingQty: fromUnits(newMax - held),
    unitPriceKrw: edit.unitPriceKrw,
    status,
    qtyEdits,
  });
}

/**
 * The seller edits the price and quantities of an active listing (PENDING_REVIEW, OPEN, PAUSED; else 409
 * INVALID_STATE; another member's id 404 LISTING_NOT_FOUND). Under the listing's row lock, so a purchase
 * racing it either takes its quantity first (and the edit sees it held) or waits and meets the new terms.
 * Setting the same terms again moves nothing: a retry is harmless. `marketKrw` is read before the lock.
 */
export async function editListing(
  db: Db,
  sellerId: number,
  listingId: number,
  edit: ListingEdit,
  marketKrw: (coin: Coin) => Promise<number | null>,
): Promise<SellListingDetail> {
  const coin = await ownListingCoin(db, listingId, sellerId);
  if (!coin) throw new AppError('LISTING_NOT_FOUND');
  const market = await marketKrw(coin);
  return inTx(db, async (tx) => {
    const l = await lockListing(tx, listingId, sellerId);
    if (!l) throw new AppError('LISTING_NOT_FOUND');
    if (!(ACTIVE_LISTING_STATUSES as readonly string[]).includes(l.status))
      throw new AppError('INVALID_STATE');
    await applyEdit(tx, l, edit, statusAfterEdit(l, edit.unitPriceKrw, market));
    return listingDetail(tx, l.id, sellerId);
  });
}

/**
 * PATCH /api/v1/sell-listings/{id} (body sellListingEditBody): the step-up first (DECISIONS §13, as for
 * creating a listing: the terms decide what buyers pay), then editListing. Idempotent by the
 * Idempotency-Key of DECISIONS §15 and by its nature (the same terms twice move nothing).
 */
export function registerEditRoute(app: FastifyZod, deps: AppDeps): void {
  app.patch(
    '/api/v1/sell-listings/:id',
    {
      config: { idempotent: true },
      preHandler: deps.guards.requireMember,
      schema: {
        tags: ['market'],
        security: [{ bearer: [] }],
        params: z.object({ id: idParam }),
        body: sellListingEditBody,
        response: okResponse(sellListingDetail),
      },
    },
    async (request) => {
      const seller = memberIdOf(request);
      const { stepUp, ...terms } = request.body;
      await requireStepUp(deps, seller, stepUp);
      const market = (coin: Coin) => marketPriceKrw(deps, request.log, coin);
      return ok(await editListing(deps.db, seller, request.params.id, terms, market));
    },
  );
}
