import type { Coin, ListingStatus } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/** The coin of the seller's listing `listingId`, or undefined when it is not theirs (or does not exist). */
export async function ownListingCoin(
  db: DbOrTx,
  listingId: number,
  sellerId: number,
): Promise<Coin | undefined> {
  const r = await db
    .selectFrom('sell_listings')
    .select('coin')
    .where('id', '=', listingId)
    .where('seller_id', '=', sellerId)
    .executeTakeFirst();
  return r?.coin;
}

/** Writes a listing's edited terms (decimal strings, whole won), its status and its count of quantity edits. */
export async function writeListingEdit(
  tx: Tx,
  listingId: number,
  v: {
    minQty: string;
    maxQty: string;
    remainingQty: string;
    unitPriceKrw: number;
    status: ListingStatus;
    qtyEdits: number;
  },
): Promise<void> {
  await tx
    .updateTable('sell_listings')
    .set({
      min_qty: v.minQty,
      max_qty: v.maxQty,
      remaining_qty: v.remainingQty,
      unit_price_krw: v.unitPriceKrw,
      status: v.status,
      qty_edits: v.qtyEdits,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', listingId)
    .execute();
}
