import type { Coin, SellListingDetail } from '@p2p/contract';
import { qty } from '../../db/numeric.ts';
import type { ListingWithSellerRow } from './queries.ts';

/** A timestamp as ISO 8601 (UTC). */
export function iso(d: Date | string): string {
  return new Date(d).toISOString();
}

/** A nullable timestamp as ISO 8601 (UTC), null kept. */
export function isoOrNull(d: Date | string | null): string | null {
  return d === null ? null : iso(d);
}

/** A real name masked for public lists (DECISIONS §10): the contract's one rule. */
export { maskName } from '@p2p/contract/names.ts';

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
