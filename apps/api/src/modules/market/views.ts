import type { Coin, SellListingDetail } from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';

/** A timestamp as ISO 8601 (UTC). */
export function iso(d: Date | string): string {
  return new Date(d).toISOString();
}

export function isoOrNull(d: Date | string | null): string | null {
  return d === null ? null : iso(d);
}

/**
 * A real name masked for public lists (DECISIONS §10): first and last character kept, the rest '*'.
 * Two characters keep only the first; one character becomes '*'. Counts code points, not UTF-16 units.
 */
export function maskName(name: string): string {
  const chars = Array.from(name.trim());
  if (chars.length <= 1) return '*';
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/** Selects one listing with its wallet address and seller identity (SPEC §3 "Sell-listing detail"). */
export function listingWithSeller(db: DbOrTx) {
  return db
    .selectFrom('sell_listings as l')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .innerJoin('members as m', 'm.id', 'l.seller_id')
    .select([
      'l.id',
      'l.seller_id',
      'l.coin',
      'l.status',
      'l.created_at',
      'l.unit_price_krw',
      'l.min_qty',
      'l.max_qty',
      'l.remaining_qty',
      'l.bank_name',
      'l.account_no',
      'l.reject_reason',
      'w.address',
      'm.login_id',
      'm.country_code',
      'm.phone_e164',
      'm.name',
    ]);
}

export type ListingWithSellerRow = Awaited<
  ReturnType<ReturnType<typeof listingWithSeller>['executeTakeFirstOrThrow']>
>;

/** Maps a listingWithSeller row to the seller's view of the listing. */
export function toListingDetail(r: ListingWithSellerRow): SellListingDetail {
  return {
    listingId: r.id,
    status: r.status,
    createdAt: iso(r.created_at),
    coinCode: r.coin satisfies Coin,
    unitPriceKrw: r.unit_price_krw,
    minQty: qty(r.min_qty),
    maxQty: qty(r.max_qty),
    remainingQty: qty(r.remaining_qty),
    address: r.address,
    sellerLoginId: r.login_id,
    sellerCountry: r.country_code,
    sellerPhone: r.phone_e164,
    accountHolder: r.name,
    bankName: r.bank_name,
    accountNo: r.account_no,
    rejectReason: r.reject_reason,
  };
}
