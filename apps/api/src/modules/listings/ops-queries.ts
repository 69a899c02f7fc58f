import type { ListingStatus, opsListing } from '@p2p/contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { listingWithSeller } from './queries.ts';
import { toListingDetail } from './views.ts';

type OpsListing = z.infer<typeof opsListing>;

/** GET /ops/api/v1/listings: listings of any (or one) status, newest first, with the seller in full. */
export async function opsListings(
  db: DbOrTx,
  q: { status?: ListingStatus; size: number; cursor?: string },
): Promise<Page<OpsListing>> {
  const scope = `ops-listings:${q.status ?? 'ALL'}`;
  const cursor = decodeCursor(scope, q.cursor, false);
  let rows = listingWithSeller(db);
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
    (r) => ({ ...toListingDetail(r), sellerId: r.seller_id }),
    (r) => encodeCursor(scope, { key: null, id: r.id }),
  );
}
