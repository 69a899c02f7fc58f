import type {
  BuyOrderDetail,
  MyListQuery,
  MyOrderCounts,
  OrderHistoryItem,
  SellOrderDetail,
} from '@p2p/contract';
import { sql } from 'kysely';
import { cappedCount } from '../../db/capped-count.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { orderWithParties } from './repo-parties.ts';
import { settleBeforeRead, settleDueFor } from './timers.ts';
import { toBuyOrderDetail, toHistoryItem, toSellOrderDetail } from './views.ts';

export { type OrderRow, type OrderSource, orderWithParties, withParties } from './repo-parties.ts';

/** One order with its parties and `due` (its payment or release deadline has passed), or undefined. */
export async function orderWithDue(db: DbOrTx, orderId: number) {
  return orderWithParties(db)
    .select(
      sql<boolean>`(o.status = 'REQUESTED' and o.payment_deadline <= now())
          or (o.status = 'PAID' and o.release_deadline <= now())`.as('due'),
    )
    .where('o.id', '=', orderId)
    .executeTakeFirst();
}

/**
 * An order's parties and status with two answers of the database clock: `due` (its payment or release
 * deadline has passed: settle it before answering) and `open` (not ended, or ended less than
 * `openDaysAfterEnd` days ago). For the chat's access check (DECISIONS §12); undefined when absent.
 */
export async function orderStanding(db: DbOrTx, orderId: number, openDaysAfterEnd: number) {
  return db
    .selectFrom('buy_orders')
    .select([
      'id',
      'buyer_id',
      'seller_id',
      'status',
      sql<boolean>`(status = 'REQUESTED' and payment_deadline <= now())
          or (status = 'PAID' and release_deadline <= now())`.as('due'),
      sql<boolean>`ended_at is null
          or ended_at > now() - make_interval(days => ${openDaysAfterEnd})`.as('open'),
    ])
    .where('id', '=', orderId)
    .executeTakeFirst();
}

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
  const [list, total] = await Promise.all([
    rows
      .orderBy('o.id', 'desc')
      .limit(q.size + 1)
      .execute(),
    // a busy member's history is tens of thousands of orders: counted up to the cap (issue 27)
    cappedCount(
      db,
      db.selectFrom('buy_orders').where(side === 'buyer' ? 'buyer_id' : 'seller_id', '=', memberId),
    ),
  ]);
  return toPage(
    list,
    q.size,
    total,
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
  // Two counts, each on its side's partial index of waiting orders (issue 27): an OR over buyer and seller
  // read every order a busy member ever had.
  const r = await sql<{ seller: string; buyer: string }>`
    select (select count(*) from buy_orders
              where seller_id = ${memberId} and status in ('REQUESTED', 'PAID')) as seller,
           (select count(*) from buy_orders
              where buyer_id = ${memberId} and status = 'REQUESTED') as buyer`.execute(db);
  const row = r.rows[0];
  return { sellerWaiting: Number(row?.seller ?? 0), buyerWaiting: Number(row?.buyer ?? 0) };
}
