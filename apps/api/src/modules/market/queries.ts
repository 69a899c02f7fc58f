import type { MyListQuery, MySellListing, TradeListing, TradeListQuery } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { toSellerStats } from './seller-stats.ts';
import { iso, maskName } from './views.ts';

// Listed = OPEN with a sellable remainder, by a seller who is not suspended (DECISIONS §8: suspended
// members cannot trade). An OPEN listing whose remainingQty fell below minQty while orders are still live
// cannot sell anything more, so the public lists hide it (DECISIONS §4 note).
function tradeBase(db: DbOrTx, coin: TradeListQuery['coin']) {
  // NOT IN over the partial index of suspended members: the count stays one pass over the listings.
  let q = db
    .selectFrom('sell_listings as l')
    .where('l.status', '=', 'OPEN')
    .where((eb) => eb('l.remaining_qty', '>=', eb.ref('l.min_qty')))
    .where('l.seller_id', 'not in', (eb) =>
      eb.selectFrom('members as sm').select('sm.id').where('sm.status', '=', 'SUSPENDED'),
    );
  if (coin) q = q.where('l.coin', '=', coin);
  return q;
}

/** The seller and their maintained track record (one primary-key row each, DECISIONS §11). */
function withSeller(q: ReturnType<typeof tradeBase>) {
  return q
    .innerJoin('members as m', 'm.id', 'l.seller_id')
    .leftJoin('seller_stats as st', 'st.member_id', 'l.seller_id');
}

const tradeColumns = [
  'l.id',
  'l.coin',
  'l.min_qty',
  'l.max_qty',
  'l.remaining_qty',
  'l.unit_price_krw',
  'l.status',
  'l.created_at',
  'm.nickname',
  'm.name',
  'm.country_code',
  'm.created_at as member_since',
  'st.completed_trades',
  'st.recent',
] as const;

type TradeRow = {
  id: number;
  coin: TradeListing['coinCode'];
  min_qty: string;
  max_qty: string;
  remaining_qty: string;
  unit_price_krw: number;
  status: TradeListing['status'];
  created_at: Date;
  nickname: string;
  name: string;
  country_code: string;
  member_since: Date;
  completed_trades: string | null;
  recent: unknown;
};

function toTradeListing(r: TradeRow): TradeListing {
  return {
    listingId: r.id,
    coinCode: r.coin,
    minQty: qty(r.min_qty),
    maxQty: qty(r.max_qty),
    remainingQty: qty(r.remaining_qty),
    unitPriceKrw: r.unit_price_krw,
    status: r.status,
    createdAt: iso(r.created_at),
    sellerNickname: r.nickname,
    // the nickname is the seller's one public name (DECISIONS §11); the field stays for SPEC §3 clients
    sellerLoginId: r.nickname,
    sellerName: maskName(r.name),
    sellerCountry: r.country_code,
    sellerStats: toSellerStats(r.completed_trades, r.recent, r.member_since),
  };
}

/**
 * The public trade list (SPEC §7, DECISIONS §4): OPEN listings, keyset-paginated so every page is one
 * index range scan — CREATED_DESC on (status[, coin], id), the price sorts on (status[, coin], price, id).
 * A malformed cursor, or one of another sort or coin filter, is 400 VALIDATION_FAILED.
 */
export async function tradeList(db: DbOrTx, q: TradeListQuery): Promise<Page<TradeListing>> {
  const scope = `trade:${q.sort}:${q.coin ?? 'ALL'}`;
  const byPrice = q.sort !== 'CREATED_DESC';
  const cursor = decodeCursor(scope, q.cursor, byPrice);
  let rows = withSeller(tradeBase(db, q.coin)).select(tradeColumns);
  if (q.sort === 'CREATED_DESC') {
    if (cursor) rows = rows.where('l.id', '<', cursor.id);
    rows = rows.orderBy('l.id', 'desc');
  } else {
    const dir = q.sort === 'PRICE_ASC' ? 'asc' : 'desc';
    if (cursor && cursor.key !== null) {
      const key = cursor.key;
      rows = rows.where((eb) =>
        eb(eb.refTuple('l.unit_price_krw', 'l.id'), dir === 'asc' ? '>' : '<', eb.tuple(key, cursor.id)),
      );
    }
    rows = rows.orderBy('l.unit_price_krw', dir).orderBy('l.id', dir);
  }
  const count = () => tradeBase(db, q.coin).select((eb) => eb.fn.countAll<number>().as('n'));
  // One round trip (issue 15): the count rides along as an uncorrelated scalar subquery, which PostgreSQL
  // runs once per statement (an InitPlan), so a page holds one pooled connection instead of two. Only a
  // page with no rows (past the end) needs the count on its own.
  const list = await rows
    .select(count().as('total_count'))
    .limit(q.size + 1)
    .execute();
  const total = list[0] ? list[0].total_count : (await count().executeTakeFirstOrThrow()).n;
  return toPage(list, q.size, Number(total), toTradeListing, (r) =>
    encodeCursor(scope, { key: byPrice ? r.unit_price_krw : null, id: r.id }),
  );
}

/**
 * The home carousel (SPEC §2 "/"): up to 10 listed listings with the most COMPLETED orders in the last
 * 7 days, then the newest.
 */
export async function bestListings(db: DbOrTx): Promise<TradeListing[]> {
  const rows = await withSeller(tradeBase(db, undefined))
    .select(tradeColumns)
    .select((eb) =>
      eb
        .selectFrom('buy_orders as o')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('o.listing_id', '=', 'l.id')
        .where('o.status', '=', 'COMPLETED')
        .where('o.completed_at', '>', sql<Date>`now() - interval '7 days'`)
        .as('trades'),
    )
    .orderBy('trades', 'desc')
    .orderBy('l.id', 'desc')
    .limit(10)
    .execute();
  return rows.map(toTradeListing);
}

/** GET /my/sell: the member's own listings of every status, newest first, cursor by id. */
export async function mySellListings(
  db: DbOrTx,
  sellerId: number,
  q: MyListQuery,
): Promise<Page<MySellListing>> {
  const cursor = decodeCursor('my-sell', q.cursor, false);
  let rows = db
    .selectFrom('sell_listings as l')
    .select([
      'l.id',
      'l.coin',
      'l.min_qty',
      'l.max_qty',
      'l.remaining_qty',
      'l.unit_price_krw',
      'l.status',
      'l.created_at',
    ])
    .where('l.seller_id', '=', sellerId);
  if (cursor) rows = rows.where('l.id', '<', cursor.id);
  const [list, count] = await Promise.all([
    rows
      .orderBy('l.id', 'desc')
      .limit(q.size + 1)
      .execute(),
    db
      .selectFrom('sell_listings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('seller_id', '=', sellerId)
      .executeTakeFirstOrThrow(),
  ]);
  return toPage(
    list,
    q.size,
    Number(count.n),
    (r) => ({
      listingId: r.id,
      coinCode: r.coin,
      minQty: qty(r.min_qty),
      maxQty: qty(r.max_qty),
      remainingQty: qty(r.remaining_qty),
      unitPriceKrw: r.unit_price_krw,
      status: r.status,
      createdAt: iso(r.created_at),
    }),
    (r) => encodeCursor('my-sell', { key: null, id: r.id }),
  );
}
