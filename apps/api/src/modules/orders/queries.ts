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
import { settleBeforeRead, settleDueFor } from './timers.ts';
import { toBuyOrderDetail, toHistoryItem, toSellOrderDetail } from './views.ts';

/**
 * Selects buy orders with their listing, the seller's wallet address, both parties and the seller's
 * maintained track record (DECISIONS §11): every order screen, history and the operator's views read this.
 * It joins `sell_listings` and `seller_stats` (listings module), `wallets` (wallets) and `members`
 * (identity) in the one statement on purpose: asking each owner in turn would cost four more round trips
 * per order shown, on the trade room's hottest reads. Read only; the columns named here are part of those
 * modules' contract, and this is the one place outside them that names them.
 */
export function orderWithParties(db: DbOrTx) {
  return db
    .selectFrom('buy_orders as o')
    .innerJoin('sell_listings as l', 'l.id', 'o.listing_id')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .innerJoin('members as s', 's.id', 'o.seller_id')
    .innerJoin('members as b', 'b.id', 'o.buyer_id')
    .leftJoin('seller_stats as st', 'st.member_id', 'o.seller_id')
    .select([
      'o.id',
      'o.listing_id',
      'o.buyer_id',
      'o.seller_id',
      'o.coin',
      'o.request_qty',
      'o.request_krw',
      'o.unit_price_krw',
      'o.fee_qty',
      'o.status',
      'o.dest_type',
      'o.dest_address',
      'o.reserve_date',
      'o.reserve_time',
      'o.txid',
      'o.reason',
      'o.created_at',
      'o.completed_at',
      'o.payment_deadline',
      'o.paid_at',
      'o.release_deadline',
      'o.dispute_opens_at',
      'o.disputed_at',
      'o.expired_at',
      'o.ended_at',
      'o.ended_by',
      'o.dispute_reason',
      'o.dispute_opened_by',
      'o.buyer_statement',
      'o.seller_statement',
      'o.system_statement',
      'st.completed_trades as seller_completed_trades',
      'st.recent as seller_recent',
      's.created_at as seller_since',
      'l.bank_name',
      'l.account_no',
      'w.address as seller_address',
      's.login_id as seller_login_id',
      's.nickname as seller_nickname',
      's.name as seller_name',
      's.country_code as seller_country',
      's.phone_e164 as seller_phone',
      'b.login_id as buyer_login_id',
      'b.nickname as buyer_nickname',
      'b.name as buyer_name',
      'b.country_code as buyer_country',
      'b.phone_e164 as buyer_phone',
      'b.bank_name as buyer_bank_name',
      'b.account_no as buyer_account_no',
    ]);
}

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderWithParties>['executeTakeFirstOrThrow']>>;

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
