import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { type App, buildApp } from '../../app.ts';
import { openDb } from '../../db/client.ts';
import { BTC_PRICE, buyBody, openListing, operator, reverify, trader } from '../orders/test-kit.ts';
import { TRADE_LIST_CHANNEL } from './trade-list-cache.ts';

/**
 * The trade list's shared answer cache over real HTTP. On PostgreSQL two app instances share one
 * database: a purchase on A must make B's next answer fresh through LISTEN/NOTIFY alone (the max age is a minute,
 * so nothing else could refresh it). On PGlite the one embedded instance plays both. A change whose notification
 * is lost (triggers skipped with session_replication_role = replica) is bounded by the max age.
 */

/** Won per BTC of the listing the purchases drain. */
const PRICE = 5_000_000;

interface Card {
  listingId: number;
  remainingQty: string;
  unitPriceKrw: number;
}
interface ListAnswer {
  returnData: { list: Card[]; totalCount: number; nextCursor: string | null };
}

async function listen(app: App): Promise<{ url: string; close: () => Promise<void> }> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function getList(base: string, query = '', headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1/sell-listings${query}`, { headers });
  const text = await res.text();
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    cacheControl: res.headers.get('cache-control'),
    body: text ? (JSON.parse(text) as ListAnswer).returnData : null,
  };
}

/** Changes a listing's price without firing any trigger: a notification that never arrives. */
async function silentPriceChange(t: TestApp, id: number, price: number): Promise<void> {
  await t.app.deps.db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await sql`update sell_listings set unit_price_krw = ${price} where id = ${id}`.execute(tx);
  });
}

/** Returns once `app` has handled every trade-list notice committed before this call (a marker sent after them). */
async function settleNotices(t: TestApp, app: App): Promise<void> {
  const marker = `settle-${crypto.randomUUID()}`;
  await sql`select pg_notify(${TRADE_LIST_CHANNEL}, ${marker})`.execute(t.app.deps.db);
  await vi.waitFor(() => expect(app.deps.tradeListCache.lastNotice).toBe(marker), {
    timeout: 3_000,
    interval: 10,
  });
}

describe('trade list cache across instances', () => {
  let t: TestApp;
  let b: App;
  let closeB: () => Promise<void>;
  let urlA: string;
  let urlB: string;

  beforeAll(async () => {
    const env = { TRADE_LIST_CACHE_MS: '60000', JWT_SECRET: 'trade-list-cache-test-secret-of-32-chars' };
    t = await createTestApp(env);
    urlA = await t.app.listen({ port: 0, host: '127.0.0.1' });
    if (onPostgres) {
      const dbh = await openDb({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir });
      b = await buildApp(t.config, { dbh, serveWeb: false, skipStartupTasks: true });
      const served = await listen(b);
      urlB = served.url;
      closeB = async () => {
        await served.close();
        await dbh.close();
      };
    } else {
      b = t.app;
      urlB = urlA;
      closeB = async () => undefined;
    }
  });
  afterAll(async () => {
    await closeB?.();
    await t?.close();
  });

  it('a purchase on A makes the next answer of B fresh, count and page included', async () => {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '1', 'Park Younghee');
    // a low price, so that a few orders under the per-order won limit sell most of the listing
    const id = await openListing(t, seller, op, { minQty: '0.3', maxQty: '1', unitPriceKrw: PRICE });
    const other = await trader(t, 'BTC', '1', 'Kim Minsu');
    await openListing(t, other, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
    const buyer = await trader(t, 'BTC');

    const first = await getList(urlB);
    expect(first.status).toBe(200);
    expect(first.body?.totalCount).toBe(2);
    expect(first.body?.list.find((c) => c.listingId === id)?.remainingQty).toBe('1');
    // served from memory: a change nobody notified is not seen while the (one-minute) entry lives
    await silentPriceChange(t, id, PRICE + 1);
    expect((await getList(urlB)).body).toEqual(first.body);
    await silentPriceChange(t, id, PRICE);

    const buy = async (krw: number) => {
      await reverify(t, buyer);
      const res = await fetch(`${urlA}/buy-orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(buyBody(id, krw, PRICE, buyer.wallet.id)),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    // 0.5 BTC bought on A: B shows 0.5 left (the notification crosses instances; allow it a moment to arrive)
    await buy(2_500_000);
    await vi.waitFor(
      async () => {
        const next = await getList(urlB);
        expect(next.body?.list.find((c) => c.listingId === id)?.remainingQty).toBe('0.5');
        expect(next.body?.totalCount).toBe(2);
      },
      { timeout: 3_000, interval: 20 },
    );
    // 0.3 more: 0.2 left is below the minimum, so the listing leaves the list and the count drops
    await buy(1_500_000);
    await vi.waitFor(
      async () => {
        const next = await getList(urlB);
        expect(next.body?.list.map((c) => c.listingId)).not.toContain(id);
        expect(next.body?.totalCount).toBe(1);
      },
      { timeout: 3_000, interval: 20 },
    );
    // the count on a cursor page is the same total
    const small = await getList(urlB, '?size=1');
    expect(small.body?.list).toHaveLength(1);
    expect(small.body?.totalCount).toBe(1);
    expect(small.body?.nextCursor).toBeNull();
  });

  it('sends an ETag, answers 304 to If-None-Match, and a new ETag after a change', async () => {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '1', 'Lee Jisoo');
    const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
    const first = await vi.waitFor(
      async () => {
        const r = await getList(urlB, '?coin=btc&sort=PRICE_ASC');
        expect(r.body?.list.map((c) => c.listingId)).toContain(id);
        return r;
      },
      { timeout: 3_000, interval: 20 },
    );
    expect(first.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.cacheControl).toBe('public, no-cache');
    // another spelling of the same query is the same entry and the same ETag
    const same = await getList(urlB, '?sort=PRICE_ASC&coin=BTC&size=20');
    expect(same.etag).toBe(first.etag);
    const again = await getList(urlB, '?coin=btc&sort=PRICE_ASC', { 'if-none-match': `W/${first.etag}` });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    // the seller closes the listing on A: B's answer changes, and so does its ETag
    const closed = await t.call('POST', `/api/v1/sell-listings/${id}/close`, { token: seller.token });
    expect(closed.status).toBe(200);
    await vi.waitFor(
      async () => {
        const r = await getList(urlB, '?coin=btc&sort=PRICE_ASC', { 'if-none-match': String(first.etag) });
        expect(r.status).toBe(200);
        expect(r.etag).not.toBe(first.etag);
        expect(r.body?.list.map((c) => c.listingId)).not.toContain(id);
      },
      { timeout: 3_000, interval: 20 },
    );
  });

  it('any write request on an instance drops its own cache before it answers (read your writes), but a route marked unaffected does not', async () => {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '1', 'Han Sora');
    const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
    const price = async () => (await getList(urlB)).body?.list.find((c) => c.listingId === id)?.unitPriceKrw;
    await vi.waitFor(async () => expect(await price()).toBe(BTC_PRICE), { timeout: 3_000, interval: 20 });
    // the setup's own notices may still be on their way to B: wait for a marker sent after them (commit order)
    await settleNotices(t, b);
    expect(await price()).toBe(BTC_PRICE);
    await silentPriceChange(t, id, BTC_PRICE + 3);
    expect(await price()).toBe(BTC_PRICE);
    // a route that cannot change a card (a phone check) leaves the entries: the answer is still the cached one
    const sms = await fetch(`${urlB}/sms/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: 'not a phone' }),
    });
    expect(sms.status).toBe(400);
    expect(await price()).toBe(BTC_PRICE);
    // a POST on B (even a refused one) drops B's entries, with no notification involved
    const res = await fetch(`${urlB}/api/v1/sell-listings/${id}/pause`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await price()).toBe(BTC_PRICE + 3);
  });

  it('a suspended seller disappears at once (members trigger)', async () => {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '1', 'Choi Yuna');
    const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
    await vi.waitFor(
      async () => expect((await getList(urlB)).body?.list.map((c) => c.listingId)).toContain(id),
      { timeout: 3_000, interval: 20 },
    );
    await t.app.deps.db
      .updateTable('members')
      .set({ status: 'SUSPENDED' })
      .where('id', '=', seller.id)
      .execute();
    await vi.waitFor(
      async () => expect((await getList(urlB)).body?.list.map((c) => c.listingId)).not.toContain(id),
      { timeout: 3_000, interval: 20 },
    );
  });

  it.runIf(onPostgres)(
    'caches nothing while its listener is down, and drops everything when it is back',
    async () => {
      const op = await operator(t);
      const seller = await trader(t, 'BTC', '1', 'Jung Hana');
      const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
      const price = async () =>
        (await getList(urlB)).body?.list.find((c) => c.listingId === id)?.unitPriceKrw;
      await vi.waitFor(async () => expect(await price()).toBe(BTC_PRICE), { timeout: 3_000, interval: 20 });
      // end every LISTEN connection of the database (A's and B's): B loads every answer until it listens again
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query = 'listen trade_list'`.execute(t.app.deps.db);
      await vi.waitFor(async () => {
        await silentPriceChange(t, id, BTC_PRICE + 7);
        expect(await price()).toBe(BTC_PRICE + 7);
      });
      // back (reconnect after 0.5 s): the cache works again, and a silent change is hidden by it again
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await price()).toBe(BTC_PRICE + 7);
      await silentPriceChange(t, id, BTC_PRICE + 8);
      expect(await price()).toBe(BTC_PRICE + 7);
    },
  );
});

describe('trade list cache: a lost notification is bounded by the max age', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ TRADE_LIST_CACHE_MS: '700' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the old answer at most TRADE_LIST_CACHE_MS after a change nobody notified', async () => {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '1', 'Park Younghee');
    const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
    const price = async () => (await getList(url)).body?.list.find((c) => c.listingId === id)?.unitPriceKrw;
    await vi.waitFor(async () => expect(await price()).toBe(BTC_PRICE), { timeout: 3_000, interval: 20 });
    const changedAt = Date.now();
    await silentPriceChange(t, id, BTC_PRICE + 1);
    expect(await price()).toBe(BTC_PRICE);
    await vi.waitFor(async () => expect(await price()).toBe(BTC_PRICE + 1), { timeout: 3_000, interval: 25 });
    expect(Date.now() - changedAt).toBeLessThan(700 + 500);
  });

  it('with TRADE_LIST_CACHE_MS=0 every answer is read from the database', async () => {
    const off = await createTestApp({ TRADE_LIST_CACHE_MS: '0' });
    try {
      const op = await operator(off);
      const seller = await trader(off, 'BTC', '1', 'Park Younghee');
      const id = await openListing(off, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: BTC_PRICE });
      const price = async () =>
        (await off.call<ListAnswer['returnData']>('GET', '/api/v1/sell-listings')).body.returnData.list.find(
          (c) => c.listingId === id,
        )?.unitPriceKrw;
      expect(await price()).toBe(BTC_PRICE);
      await silentPriceChange(off, id, BTC_PRICE + 1);
      expect(await price()).toBe(BTC_PRICE + 1);
    } finally {
      await off.close();
    }
  });
});
