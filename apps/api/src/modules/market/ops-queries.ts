import type { ListingStatus, OrderStatus, opsListing, opsOrder } from '@p2p/contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import { type OrderRow, orderWithParties } from './order-views.ts';
import { type Page, toPage } from './queries.ts';
import { iso, isoOrNull, listingWithSeller, qty, toListingDetail } from './views.ts';

type OpsListing = z.infer<typeof opsListing>;
type OpsOrder = z.infer<typeof opsOrder>;

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

/** GET /ops/api/v1/orders: orders of any (or one) status, optionally of one member (as buyer or seller). */
export async function opsOrders(
  db: DbOrTx,
  q: { status?: OrderStatus; memberId?: number; size: number; cursor?: string },
): Promise<Page<OpsOrder>> {
  const scope = `ops-orders:${q.status ?? 'ALL'}:${q.memberId ?? 'ALL'}`;
  const cursor = decodeCursor(scope, q.cursor, false);
  let rows = orderWithParties(db);
  let count = db.selectFrom('buy_orders').select((eb) => eb.fn.countAll<number>().as('n'));
  if (q.status) {
    rows = rows.where('o.status', '=', q.status);
    count = count.where('status', '=', q.status);
  }
  const memberId = q.memberId;
  if (memberId !== undefined) {
    rows = rows.where((eb) => eb.or([eb('o.buyer_id', '=', memberId), eb('o.seller_id', '=', memberId)]));
    count = count.where((eb) => eb.or([eb('buyer_id', '=', memberId), eb('seller_id', '=', memberId)]));
  }
  if (cursor) rows = rows.where('o.id', '<', cursor.id);
  const [list, n] = await Promise.all([
    rows
      .orderBy('o.id', 'desc')
      .limit(q.size + 1)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return toPage(list, q.size, Number(n.n), toOpsOrder, (r) => encodeCursor(scope, { key: null, id: r.id }));
}

function toOpsOrder(r: OrderRow): OpsOrder {
  return {
    orderId: r.id,
    listingId: r.listing_id,
    buyerId: r.buyer_id,
    sellerId: r.seller_id,
    buyerLoginId: r.buyer_login_id,
    sellerLoginId: r.seller_login_id,
    coinCode: r.coin,
    requestQty: qty(r.request_qty),
    feeQty: qty(r.fee_qty),
    requestKrwAmount: r.request_krw,
    status: r.status,
    destType: r.dest_type,
    destAddress: r.dest_address,
    txid: r.txid,
    reason: r.reason,
    createdAt: iso(r.created_at),
    completedAt: isoOrNull(r.completed_at),
  };
}

/** One order in the operator's view, or 404 ORDER_NOT_FOUND. */
export async function opsOrderById(db: DbOrTx, orderId: number): Promise<OpsOrder> {
  const row = await orderWithParties(db).where('o.id', '=', orderId).executeTakeFirst();
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toOpsOrder(row);
}
