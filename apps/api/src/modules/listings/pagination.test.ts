import { COINS, type Coin, type ListingSort } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, FIXTURE_PASSWORD, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { openSession } from '../identity/index.ts';
import { buyBody, operator, placeOrder, verifiedBuyer, walletFor } from '../orders/test-kit.ts';
import { refreshListingTrades } from './queries.ts';
import { approveListing, closeListing, createListing } from './service.ts';

interface Seeded {
  id: number;
  coin: Coin;
  price: number;
}

let t: TestApp;
let op: FixtureMember;
const open: Seeded[] = [];

/** One seller per listing (one active listing per seller and coin); prices repeat to exercise the id tie-break. */
async function seed(coin: Coin, price: number, approve = true): Promise<number> {
  const m = await createMember(t);
  const w = await walletFor(t, m.id, coin);
  await fundMember(t, m.id, coin, '10');
  const l = await createListing(t.app.deps.db, m.id, {
    walletId: w.id,
    minQty: '0.01',
    maxQty: '1',
    unitPriceKrw: price,
    bankName: 'Bank',
    accountNo: '1',
  });
  if (approve) await approveListing(t.app.deps.db, op.id, l.listingId);
  return l.listingId;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
  const prices = [3000, 1000, 2000, 1000, 5000, 2000, 4000, 1000];
  for (let i = 0; i < 26; i++) {
    const coin = COINS[i % 4] as Coin;
    const price = prices[i % prices.length] ?? 1000;
    open.push({ id: await seed(coin, price), coin, price });
  }
  // not listed: one pending review, one closed by its seller
  await seed('BTC', 1500, false);
  const closed = await seed('BTC', 1500);
  const owner = await t.app.deps.db
    .selectFrom('sell_listings')
    .select('seller_id')
    .where('id', '=', closed)
    .executeTakeFirstOrThrow();
  await closeListing(t.app.deps.db, owner.seller_id, closed);
});
afterAll(() => t.close());

function expected(sort: ListingSort, coin?: Coin): number[] {
  const rows = open.filter((l) => !coin || l.coin === coin);
  const cmp: Record<ListingSort, (a: Seeded, b: Seeded) => number> = {
    CREATED_DESC: (a, b) => b.id - a.id,
    PRICE_ASC: (a, b) => a.price - b.price || a.id - b.id,
    PRICE_DESC: (a, b) => b.price - a.price || b.id - a.id,
  };
  return rows.sort(cmp[sort]).map((l) => l.id);
}

type Page = { list: { listingId: number }[]; nextCursor: string | null; totalCount: number };

async function walk(sort: ListingSort, coin?: Coin, size = 4): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const qs: URLSearchParams = new URLSearchParams({
      sort,
      size: String(size),
      ...(coin ? { coin } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const r = await t.call<Page>('GET', `/api/v1/sell-listings?${qs}`);
    expect(r.status).toBe(200);
    ids.push(...r.body.returnData.list.map((l) => l.listingId));
    totals.push(r.body.returnData.totalCount);
    cursor = r.body.returnData.nextCursor;
    if (!cursor) break;
  }
  return { ids, totals };
}

describe('the trade list (keyset pagination)', () => {
  for (const sort of ['CREATED_DESC', 'PRICE_ASC', 'PRICE_DESC'] as const) {
    for (const coin of [undefined, 'BTC', 'TRX'] as const) {
      it(`${sort} ${coin ?? 'all coins'}: every OPEN listing once, in order, across pages`, async () => {
        const want = expected(sort, coin);
        const { ids, totals } = await walk(sort, coin);
        expect(ids).toEqual(want);
        expect(new Set(totals)).toEqual(new Set([want.length]));
      });
    }
  }

  it('defaults to 20 newest first; size is capped at 50', async () => {
    const r = await t.call<Page>('GET', '/api/v1/sell-listings');
    expect(r.body.returnData.list.map((l) => l.listingId)).toEqual(expected('CREATED_DESC').slice(0, 20));
    expect(r.body.returnData.totalCount).toBe(26);
    for (const q of ['size=51', 'size=0', 'size=x', 'sort=NEWEST', 'coin=DOGE']) {
      const bad = await t.call('GET', `/api/v1/sell-listings?${q}`);
      expect([q, bad.status, bad.body.returnMessage]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
  });

  it('takes the coin tabs as SPEC §2 names them: btc, all, in any case', async () => {
    const ids = async (q: string) => {
      const r = await t.call<Page>('GET', `/api/v1/sell-listings?size=50&${q}`);
      expect([q, r.status]).toEqual([q, 200]);
      return r.body.returnData.list.map((l) => l.listingId);
    };
    for (const q of ['coin=btc', 'coin=Btc', 'coin=BTC'])
      expect(await ids(q)).toEqual(expected('CREATED_DESC', 'BTC'));
    for (const q of ['coin=all', 'coin=ALL', 'coin=All'])
      expect(await ids(q)).toEqual(expected('CREATED_DESC'));
    expect(await ids('coin=trx&sort=PRICE_ASC')).toEqual(expected('PRICE_ASC', 'TRX'));
    // a cursor made under "all" continues under "ALL" and under no filter: the scope is the same
    const first = await t.call<Page>('GET', '/api/v1/sell-listings?coin=all&size=2');
    const next = await t.call<Page>(
      'GET',
      `/api/v1/sell-listings?size=2&cursor=${first.body.returnData.nextCursor}`,
    );
    expect(next.status).toBe(200);
    for (const q of ['coin=', 'coin=doge', 'coin=alll', 'coin=btc,eth']) {
      const bad = await t.call('GET', `/api/v1/sell-listings?${q}`);
      expect([q, bad.status, bad.body.returnMessage]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
  });

  it('refuses a malformed cursor and a cursor of another sort or filter with 400', async () => {
    const first = await t.call<Page>('GET', '/api/v1/sell-listings?sort=PRICE_ASC&size=2');
    const cursor = first.body.returnData.nextCursor ?? '';
    const forged = Buffer.from(JSON.stringify({ s: 'trade:PRICE_ASC:ALL', k: 'x', i: 1 })).toString(
      'base64url',
    );
    for (const q of [
      'cursor=abc',
      'cursor=!!',
      `sort=PRICE_DESC&cursor=${cursor}`,
      `sort=PRICE_ASC&coin=BTC&cursor=${cursor}`,
      `sort=CREATED_DESC&cursor=${cursor}`,
      `sort=PRICE_ASC&cursor=${forged}`,
    ]) {
      const r = await t.call<{ fields: Record<string, string> }>('GET', `/api/v1/sell-listings?${q}`);
      expect([q, r.status, r.body.returnMessage]).toEqual([q, 400, 'VALIDATION_FAILED']);
      expect(r.body.returnData.fields.cursor).toBeDefined();
    }
  });

  it('best listings: most COMPLETED orders in 7 days first, then newest, at most 10', async () => {
    const [a, b] = [open[3], open[7]] as [Seeded, Seeded]; // both TRX listings, price 1000 won
    const buyer = await verifiedBuyer(t, a.coin);
    const complete = async (l: Seeded, n: number) => {
      const seller = await t.app.deps.db
        .selectFrom('sell_listings')
        .select('seller_id')
        .where('id', '=', l.id)
        .executeTakeFirstOrThrow();
      const { accessToken: token } = await openSession(t.app.deps, { id: seller.seller_id, role: 'MEMBER' });
      for (let i = 0; i < n; i++) {
        const o = await placeOrder<{ orderId: number }>(
          t,
          buyer,
          buyBody(l.id, 100, l.price, buyer.wallet.id),
        );
        await t.call('POST', `/buy-orders/${o.body.returnData.orderId}/complete`, {
          token,
          body: { txid: 'x', stepUp: { password: FIXTURE_PASSWORD } },
        });
      }
    };
    await complete(a, 2);
    await complete(b, 1);
    // the figures are the best listings job's (issue 27): one run, as its next tick would
    expect(await refreshListingTrades(t.app.deps.db)).toBe(true);
    const r = await t.call<{ listingId: number }[]>('GET', '/api/v1/sell-listings/best');
    const rest = expected('CREATED_DESC').filter((id) => id !== a.id && id !== b.id);
    expect(r.body.returnData.map((l) => l.listingId)).toEqual([a.id, b.id, ...rest.slice(0, 8)]);
    await t.assertLedger();
  });
});
