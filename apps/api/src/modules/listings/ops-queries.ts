import type { ListingStatus, opsListing } from '@p2p/contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { listingWithSeller } from './queries.ts';
import { toListingDetail } from './views.ts';

type OpsListing = z.infer<typeof opsListing>;

/** A bank name as typed (a 기타 bank is free text): case and spaces do not make another bank. */
function bankKey(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, '').toLowerCase();
}

/**
 * Whether a listing's pay-in account is another than the seller's profile account (DECISIONS §13 as
 * amended): another bank or account number, or no account on the profile at all. Account numbers are
 * digits on both sides (the contract's accountNoField), so they compare as they are.
 */
export function accountDiffersFromProfile(
  listing: { bankName: string; accountNo: string },
  profile: { bankName: string | null; accountNo: string | null },
): boolean {
  if (profile.bankName === null || profile.accountNo === null) return true;
  return bankKey(listing.bankName) !== bankKey(profile.bankName) || listing.accountNo !== profile.accountNo;
}

/**
 * GET /ops/api/v1/listings: listings of any (or one) status, newest first, with the seller in full and the
 * seller's profile account beside the listing's (opsListing).
 */
export async function opsListings(
  db: DbOrTx,
  q: { status?: ListingStatus; size: number; cursor?: string },
): Promise<Page<OpsListing>> {
  const scope = `ops-listings:${q.status ?? 'ALL'}`;
  const cursor = decodeCursor(scope, q.cursor, false);
  let rows = listingWithSeller(db).select([
    'm.bank_name as profile_bank_name',
    'm.account_no as profile_account_no',
  ]);
  let count = db.selectFrom('sell_listings').select((eb) => eb.fn.countAll<number>().as('n'));
  if (q.status) {
    rows = rows.where('l.status', '=', q.status);
    count = count.where('status', '=', q.status);
  }
  if (cursor) rows = rows.where('l.id', '<', cursor.id);
  const [list, n] = await Promise.all([
    rows
      .orderBy('l.id', 'desc')
      .limit(q.size + 1)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return toPage(
    list,
    q.size,
    Number(n.n),
    (r) => {
      const detail = toListingDetail(r);
      const profileAccount = {
        bankName: r.profile_bank_name,
        accountNo: r.profile_account_no,
        accountHolder: r.name,
      };
      return {
        ...detail,
        sellerId: r.seller_id,
        profileAccount,
        accountDiffersFromProfile: accountDiffersFromProfile(detail, profileAccount),
      };
    },
    (r) => encodeCursor(scope, { key: null, id: r.id }),
  );
}
