import { COINS, type OpsSummary, type Page, type TradeListing } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import type { DbOrTx } from '../../db/client.ts';
import { foldKeptCounts, readKeptCounts } from '../../db/kept-counts.ts';
import { inTx } from '../../db/tx.ts';
import { BTC_PRICE, btcMarket, buyBody, listVia, placeOrder, trader } from '../orders/test-kit.ts';
import { SUMMARY_KEYS } from './queries.ts';

let t: TestApp;
let op: FixtureMember;
const orderIds: number[] = [];
const listingIds: number[] = [];
const memberIds: number[] = [];

const ORDER = ['REQUESTED', 'PAID', 'DISPUTED', 'COMPLETED', 'CANCELED', 'EXPIRED'];
const LISTING = ['PENDING_REVIEW', 'OPEN', 'PAUSED', 'CLOSED'];
const MEMBER = ['ACTIVE', 'SUSPENDED'];
const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR' });
  const { seller, buyer, id } = await btcMarket(t, op);
  listingIds.push(id);
  for (let i = 0; i < 3; i++) {
    const r = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    orderIds.push(r.body.returnData.orderId);
  }
  const other = await trader(t, 'XRP', '1000');
  listingIds.push(await listVia(t, other, { minQty: '10', maxQty: '100', unitPriceKrw: 3000 }));
  memberIds.push(seller.id, buyer.id, other.id);
});
afterAll(() => t.close());

const KEYS = [...SUMMARY_KEYS, ...COINS.map((c) => `listed:${c}`)];

/** Every kept count as the tables say now, with the same filters as 037's key functions. */
async function recount(db: DbOrTx): Promise<Record<string, number>> {
  const r = await sql<{ k: string; n: string }>`
    select 'pendingListings' as k, count(*) as n from sell_listings where status = 'PENDING_REVIEW'
    union all select 'pendingWithdrawals', count(*) from transfers
      where status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL'
    union all select 'requestedOrders', count(*) from buy_orders where status in ('REQUESTED', 'PAID')
    union all select 'disputedOrders', count(*) from buy_orders where status = 'DISPUTED'
    union all select 'members', count(*) from members
    union all select 'suspendedMembers', count(*) from members where status = 'SUSPENDED'
    union all select 'listed:' || c, (select count(*) from sell_listings
      where coin = c and status = 'OPEN' and remaining_qty >= min_qty) from unnest(${[...COINS]}::text[]) c`.execute(
    db,
  );
  return Object.fromEntries(r.rows.map((row) => [row.k, Number(row.n)]));
}
const kept = (db: DbOrTx) => readKeptCounts(db, KEYS);

/** The trade list's total as counted: listed listings of sellers who are not suspended. */
async function listedNow(db: DbOrTx): Promise<number> {
  const r = await sql<{
    n: string;
  }>`select count(*) as n from sell_listings l join members m on m.id = l.seller_id
    where l.status = 'OPEN' and l.remaining_qty >= l.min_qty and m.status <> 'SUSPENDED'`.execute(db);
  return Number(r.rows[0]?.n);
}

/** One transaction moving a random order, listing and member to random states; some roll back. */
async function randomMoves(db: TestApp['app']['deps']['db'], rollBack: boolean): Promise<void> {
  await inTx(db, async (tx) => {
    await sql`update buy_orders set status = ${pick(ORDER)} where id = ${pick(orderIds)}`.execute(tx);
    // a status, or a remainder at, above or below the minimum (in and out of "listed")
    await sql`update sell_listings set status = ${pick(LISTING)},
      remaining_qty = least(max_qty, min_qty * ${pick([0, 1, 2])}) where id = ${pick(listingIds)}`.execute(
      tx,
    );
    await sql`update members set status = ${pick(MEMBER)} where id = ${pick(memberIds)}`.execute(tx);
    if (rollBack) throw new Error('rolled back on purpose');
  }).catch((err: Error) => {
    // a deadlock between two random transactions is a rollback like the one on purpose
    if (!/rolled back on purpose|deadlock/.test(err.message)) throw err;
  });
}

describe('kept counts: the console summary and the trade list total (037_kept_counts.sql, issue 27)', () => {
  it('counts exactly through parallel changes, rollbacks and concurrent folds', async () => {
    const db = t.app.deps.db;
    expect(await kept(db)).toEqual(await recount(db));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      work.push(randomMoves(db, i % 3 === 0));
      if (i % 10 === 0) work.push(foldKeptCounts(db), foldKeptCounts(db));
    }
    await Promise.all(work);
    const counts = await kept(db);
    expect(counts).toEqual(await recount(db));
    // what the console and the trade list answer agree, and folding changes nothing but where the numbers sit
    const r = await t.call<OpsSummary>('GET', '/ops/api/v1/summary', { token: op.token });
    expect(r.body.returnData).toEqual(Object.fromEntries(SUMMARY_KEYS.map((k) => [k, counts[k]])));
    const list = await t.call<Page<TradeListing>>('GET', '/api/v1/sell-listings?size=1');
    expect(list.body.returnData.totalCount).toBe(await listedNow(db));
    await Promise.all([foldKeptCounts(db), foldKeptCounts(db)]);
    const left = await sql<{ n: string }>`select count(*) as n from kept_count_deltas`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(await kept(db)).toEqual(counts);
  });

  it('the trade list total leaves out suspended sellers', async () => {
    const db = t.app.deps.db;
    let size = 2; // a page size of its own per read: a new key of the trade list cache
    await sql`update sell_listings set status = 'OPEN', remaining_qty = max_qty`.execute(db);
    await sql`update members set status = 'ACTIVE' where id = any(${memberIds}::bigint[])`.execute(db);
    const total = async (coin = '') =>
      (await t.call<Page<TradeListing>>('GET', `/api/v1/sell-listings?size=${size++}${coin}`)).body.returnData
        .totalCount;
    expect(await total()).toBe(listingIds.length);
    expect(await total('&coin=XRP')).toBe(1);
    await sql`update members set status = 'SUSPENDED' where id = ${memberIds[2] as number}`.execute(db);
    expect(await total()).toBe(listingIds.length - 1);
    expect(await total('&coin=XRP')).toBe(0);
    expect(await total()).toBe(await listedNow(db));
  });

  it('a change that does not move a row between counts writes no delta', async () => {
    const db = t.app.deps.db;
    await foldKeptCounts(db);
    const id = orderIds[0] as number;
    await sql`update buy_orders set status = 'REQUESTED' where id = ${id}`.execute(db);
    await sql`update sell_listings set status = 'OPEN', remaining_qty = max_qty where id = ${listingIds[0] as number}`.execute(
      db,
    );
    await foldKeptCounts(db);
    await sql`update buy_orders set status = 'PAID', payment_deadline = now() + interval '1 hour'
      where id = ${id}`.execute(db);
    // a purchase that leaves the listing listed
    await sql`update sell_listings set remaining_qty = remaining_qty - min_qty where id = ${listingIds[0] as number}`.execute(
      db,
    );
    await sql`update members set nickname = nickname where id = ${memberIds[0] as number}`.execute(db);
    const left = await sql<{ n: string }>`select count(*) as n from kept_count_deltas`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(await kept(db)).toEqual(await recount(db));
  });
});
