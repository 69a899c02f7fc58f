import {
  ACTIVE_LISTING_STATUSES,
  COINS,
  type Coin,
  type MyListQuery,
  type MySellListing,
  type TradeListing,
  type TradeListQuery,
} from '@p2p/contract';
import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/client.ts';
import { keptCountSum } from '../../db/kept-counts.ts';
import { qty } from '../../db/numeric.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { toSellerStats } from './seller-stats.ts';
import { iso, maskName } from './views.ts';

// Listed = OPEN with a sellable remainder, by a seller who is not suspended (DECISIONS §8: suspended
// members cannot trade). An OPEN listing whose remainingQty fell below minQty while orders are still live
// cannot sell anything more, so the public lists hide it (DECISIONS §4 note).
function tradeBase(db: DbOrTx, coin: TradeListQuery['coin'], exclude: readonly number[] = []) {
  // NOT IN over the partial index of suspended members: the count stays one pass over the listings. The
  // members table is the identity module's, read here in the same statement (a page is one round trip).
  // The statuses are literals (issue 27): as parameters, PostgreSQL's generic plan for "status = $1" costed an
  // average status on the grown database, so it planned the page anew on every read (0.8 ms, more than running
  // it); with them in the text the generic plan is the custom one and is kept after five reads.
  let q = db
    .selectFrom('sell_listings as l')
    .where('l.status', '=', sql.lit('OPEN'))
    .where((eb) => eb('l.remaining_qty', '>=', eb.ref('l.min_qty')))
    .where('l.seller_id', 'not in', (eb) =>
      eb.selectFrom('members as sm').select('sm.id').where('sm.status', '=', sql.lit('SUSPENDED')),
    );
  if (coin) q = q.where('l.coin', '=', coin);
  if (exclude.length > 0) q = q.where('l.seller_id', 'not in', exclude);
  return q;
}

/**
 * The trade list's total (issue 27): the kept count of listed listings of the coin, or of every coin
 * (037_kept_counts.sql, `listed:<COIN>`), less those of suspended sellers and of `exclude` (read through
 * sell_listings_listed_idx by seller: as many rows as those sellers have listed). Exact, and the same cost at
 * 50 or 50,000 listed listings, where counting them read every one (to 1,000, "1,000+").
 */
function listedTotal(coin: TradeListQuery['coin'], exclude: readonly number[]) {
  const keys = (coin ? [coin] : COINS).map((c) => `listed:${c}`);
  const excluded = exclude.length > 0 ? sql`or l.seller_id = any(${[...exclude]}::bigint[])` : sql``;
  return sql<string>`(${keptCountSum(keys)} - (select count(*) from sell_listings l
    where l.status = 'OPEN' and l.remaining_qty >= l.min_qty ${coin ? sql`and l.coin = ${coin}` : sql``}
      and (l.seller_id in (select sm.id from members sm where sm.status = 'SUSPENDED') ${excluded})))`;
}

/** The seller (identity's `members`) and their maintained track record (one primary-key row each, DECISIONS §11). */
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
 * A malformed cursor, or one of another sort or coin filter, is 400 VALIDATION_FAILED. `excludeSellers` leaves
 * those sellers' listings out (a blocker's own view, DECISIONS §19; never cached).
 */
export async function tradeList(
  db: DbOrTx,
  q: TradeListQuery,
  excludeSellers: readonly number[] = [],
): Promise<Page<TradeListing>> {
  const scope = `trade:${q.sort}:${q.coin ?? 'ALL'}`;
  const byPrice = q.sort !== 'CREATED_DESC';
  const cursor = decodeCursor(scope, q.cursor, byPrice);
  let rows = withSeller(tradeBase(db, q.coin, excludeSellers)).select(tradeColumns);
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
  // One round trip: the total rides along as an uncorrelated scalar subquery, which PostgreSQL runs once per
  // statement (an InitPlan), so a page holds one pooled connection. Only a page with no rows (past the end)
  // reads it on its own.
  const list = await rows
    .select(listedTotal(q.coin, excludeSellers).as('total_count'))
    .limit(sql.lit(q.size + 1))
    .execute();
  const total = list[0]
    ? list[0].total_count
    : (await db.selectNoFrom(listedTotal(q.coin, excludeSellers).as('n')).executeTakeFirstOrThrow()).n;
  return toPage(list, q.size, { total: Number(total), capped: false }, toTradeListing, (r) =>
    encodeCursor(scope, { key: byPrice ? r.unit_price_krw : null, id: r.id }),
  );
}

/**
 * How many of the best figures the carousel reads before it keeps the 10 still listed (bestListings). Each is a
 * listing, member and track-record lookup: 50 cost 0.38-0.45 ms a read at 50,000 listings, 20 cost 0.17 ms
 * (pgbench, prepared; issue 27).
 */
const BEST_CANDIDATES = 20;

/**
 * The home carousel (SPEC §2 "/"): up to 10 listed listings with the most COMPLETED orders in the last
 * 7 days, then the newest. The figures are the best listings job's (stats_listing_trades, best-listings.ts,
 * refreshed every minute): a public read never counts orders (issue 27). Two short reads: the ranked ones by
 * the figures' index, then the newest listed to fill up to 10.
 *
 * The ranked read takes the first BEST_CANDIDATES figures off stats_listing_trades_rank_idx before joining:
 * joined whole, PostgreSQL hashed every OPEN listing (5,000 at two million orders) with every figure and sorted
 * them (50-330 ms, now 1 ms); the job writes only listings OPEN at refresh, so the first 20 hold the 10 still listed
 * unless 10 of them closed within the minute, and then the newest fill in.
 */
export async function bestListings(db: DbOrTx): Promise<TradeListing[]> {
  const ranked = await withSeller(tradeBase(db, undefined))
    .innerJoin('stats_listing_trades as s', 's.listing_id', 'l.id')
    // `= any(array(...))`: the candidates become an array first, then primary key lookups; as a joined
    // subquery the planner still hashed every listed listing against them (3 ms at 5,000 listed).
    .where(
      sql<boolean>`l.id = any(array(select listing_id from stats_listing_trades
        order by trades desc, listing_id desc limit ${sql.lit(BEST_CANDIDATES)}))`,
    )
    .select(tradeColumns)
    .orderBy('s.trades', 'desc')
    .orderBy('l.id', 'desc')
    // literals, as the statuses (tradeBase): a generic plan for "limit $1" guessed 10% of the figures
    .limit(sql.lit(10))
    .execute();
  if (ranked.length >= 10) return ranked.map(toTradeListing);
  let newest = withSeller(tradeBase(db, undefined)).select(tradeColumns);
  if (ranked.length > 0)
    newest = newest.where(
      'l.id',
      'not in',
      ranked.map((r) => r.id),
    );
  const rest = await newest
    .orderBy('l.id', 'desc')
    .limit(sql.lit(10 - ranked.length))
    .execute();
  return [...ranked, ...rest].map(toTradeListing);
}

/**
 * Rewrites the best listings' figures (stats_listing_trades): per listing OPEN now, its COMPLETED orders of
 * the last 7 days, one pass over that week's range of buy_orders_completed_idx. One instance at a time (a
 * transaction advisory lock; another instance skips its turn). The count of `buy_orders` (the orders module's
 * table) is read here, as the carousel did, so the figure stays one statement. True when this call rewrote them.
 */
export async function refreshListingTrades(db: Db): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const lock = await sql<{ got: boolean }>`
      select pg_try_advisory_xact_lock(hashtext('stats_listing_trades')) as got`.execute(tx);
    if (!lock.rows[0]?.got) return false;
    await sql`delete from stats_listing_trades`.execute(tx);
    await sql`insert into stats_listing_trades (listing_id, trades)
      select o.listing_id, count(*) from buy_orders o
      join sell_listings l on l.id = o.listing_id and l.status = 'OPEN'
      where o.status = 'COMPLETED' and o.completed_at > now() - interval '7 days'
      group by o.listing_id`.execute(tx);
    return true;
  });
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

/**
 * Selects one listing with its wallet address and seller identity (SPEC §3 "Sell-listing detail"). Joins
 * `wallets` and `members` of the wallets and identity modules in the same statement: the detail is read on
 * every listing screen and after every listing change, and a second round trip for an address and a name
 * would double its cost. Read only; those modules' columns named here are part of their contract.
 */
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

/**
 * The terms of listing `listingId` a purchase is checked against before the row lock (they never change):
 * id, seller, coin, status, minQty, unit price and the seller's member status; undefined when absent.
 * With `walletId` (an INTERNAL destination) the buyer's ACTIVE wallet of the listing's coin with that id
 * comes along (dest_wallet_id, dest_wallet_address; null when it is not theirs, not of the coin or not
 * active). One statement joining `members` (identity) and `wallets` (wallets module): a purchase is the
 * platform's hot path (bench/README) and asking the wallets module separately would add a round
 * trip to every purchase. Read only.
 */
export async function listingForPurchase(
  db: DbOrTx,
  listingId: number,
  buyerId: number,
  walletId: number | null,
) {
  return db
    .selectFrom('sell_listings as l')
    .innerJoin('members as m', 'm.id', 'l.seller_id')
    .leftJoin('wallets as w', (j) =>
      j
        // identity ids start at 1: no wallet named, no row joined
        .on('w.id', '=', walletId ?? 0)
        .on('w.member_id', '=', buyerId)
        .onRef('w.coin', '=', 'l.coin')
        .on('w.status', '=', 'ACTIVE'),
    )
    .select([
      'l.id',
      'l.seller_id',
      'l.coin',
      'l.status',
      'l.min_qty',
      'l.unit_price_krw',
      'm.status as seller_status',
      'w.id as dest_wallet_id',
      'w.address as dest_wallet_address',
    ])
    .where('l.id', '=', listingId)
    .executeTakeFirst();
}

/** True when the seller has a listing of `coin` in an active state (PENDING_REVIEW, OPEN, PAUSED). */
export async function hasActiveListing(db: DbOrTx, sellerId: number, coin: Coin): Promise<boolean> {
  const active = await db
    .selectFrom('sell_listings')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('coin', '=', coin)
    .where('status', 'in', ACTIVE_LISTING_STATUSES)
    .executeTakeFirst();
  return active !== undefined;
}
