import type {
  BuyOrderDetail,
  MyListQuery,
  MyOrderCounts,
  OrderHistoryItem,
  SellOrderDetail,
} from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import { type Page, toPage } from '../../http/page.ts';
import { orderWithParties, toBuyOrderDetail, toHistoryItem, toSellOrderDetail } from './order-views.ts';
import { settleBeforeRead, settleDueFor } from './timers.ts';

export type OrderSide = 'buyer' | 'seller';

/**
 * GET /my/buy-history (side buyer) and /my/sell-history (side seller): the member's orders of every
 * status, newest first, keyset by id (SPEC §3 fields; the sell history adds buyerNickname).
 */
export async function orderHistory(
  db: Db,
  memberId: number,
  side: OrderSide,
  q: MyListQuery,
): Promise<Page<OrderHistoryItem>> {
  // an order past its deadline never shows as live (DECISIONS §11): settle the member's due orders first
  await settleDueFor(db, memberId);
  const scope = `${side}-history`;
  const cursor = decodeCursor(scope, q.cursor, false);
  const col = side === 'buyer' ? 'o.buyer_id' : 'o.seller_id';
  let rows = orderWithParties(db).where(col, '=', memberId);
  if (cursor) rows = rows.where('o.id', '<', cursor.id);
  const [list, count] = await Promise.all([
    rows
      .orderBy('o.id', 'desc')
      .limit(q.size + 1)
      .execute(),
    db
      .selectFrom('buy_orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(side === 'buyer' ? 'buyer_id' : 'seller_id', '=', memberId)
      .executeTakeFirstOrThrow(),
  ]);
  return toPage(
    list,
    q.size,
    Number(count.n),
    (r) => toHistoryItem(r, side === 'seller'),
    (r) => encodeCursor(scope, { key: null, id: r.id }),
  );
}

/** GET /my/buy-history/{id}: 404 ORDER_NOT_FOUND unless the caller is the buyer; settled before it is read. */
export async function buyOrderDetail(db: Db, buyerId: number, orderId: number): Promise<BuyOrderDetail> {
  await settleBeforeRead(db, orderId);
  const row = await orderWithParties(db)
    .where('o.id', '=', orderId)
    .where('o.buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toBuyOrderDetail(row);
}

/** GET /my/sell-history/{id}: 404 ORDER_NOT_FOUND unless the caller is the seller; settled before it is read. */
export async function sellOrderDetail(db: Db, sellerId: number, orderId: number): Promise<SellOrderDetail> {
  await settleBeforeRead(db, orderId);
  const row = await orderWithParties(db)
    .where('o.id', '=', orderId)
    .where('o.seller_id', '=', sellerId)
    .executeTakeFirst();
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toSellOrderDetail(row);
}

/**
 * GET /my/order-counts (DECISIONS §11): how many orders wait for the member, for the seller's badge:
 * on their listings in REQUESTED or PAID, and their own purchases still in REQUESTED. Due orders are
 * settled first, so an expired order never counts.
 */
export async function myOrderCounts(db: Db, memberId: number): Promise<MyOrderCounts> {
  await settleDueFor(db, memberId);
  const r = await db
    .selectFrom('buy_orders')
    .select((eb) => [
      eb.fn
        .countAll<string>()
        .filterWhere((w) => w.and([w('seller_id', '=', memberId), w('status', 'in', ['REQUESTED', 'PAID'])]))
        .as('seller'),
      eb.fn
        .countAll<string>()
        .filterWhere((w) => w.and([w('buyer_id', '=', memberId), w('status', '=', 'REQUESTED')]))
        .as('buyer'),
    ])
    .where((eb) => eb.or([eb('seller_id', '=', memberId), eb('buyer_id', '=', memberId)]))
    .executeTakeFirstOrThrow();
  return { sellerWaiting: Number(r.seller), buyerWaiting: Number(r.buyer) };
}
