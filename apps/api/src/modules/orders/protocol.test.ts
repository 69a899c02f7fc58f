import { orderActionsFor } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import {
  available,
  BTC_PRICE,
  btcMarket,
  buyBody,
  escrow,
  myListing,
  operator,
  placeOrder,
  type Trader,
} from './test-kit.ts';
import { runOrderTimers } from './timers.ts';

/**
 * The trade protocol (DECISIONS §11): every transition of the table, the deadlines, the timers, the
 * griefing limits, the sellers' track record and the operators' dispute queue. Time is moved by setting
 * an order's deadline into the past in the database (the same instant the timers compare with now()).
 */

const PRICE = BTC_PRICE;
const WINDOW = 1800;
const RELEASE = 3600;
const DISPUTE_AFTER = 900;

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  // the interval timer is off here: tests run the timers by hand so each step is deterministic
  t = await createTestApp({ ORDER_TIMER_INTERVAL_MS: '0' });
  op = await operator(t);
});
afterAll(() => t.close());

type Order = Record<string, unknown> & {
  orderId: number;
  status: string;
  createdAt: string;
  paymentDeadline: string | null;
  paidAt: string | null;
  releaseDeadline: string | null;
  disputedAt: string | null;
  expiredAt: string | null;
  disputeOpensAt: string | null;
  dispute: null | Record<string, unknown>;
};

const db = () => t.app.deps.db;
const statement = 'I sent 1,000,000 won from my own account at 14:02.';

async function order(market: { buyer: Trader; id: number }, krw = 1_000_000): Promise<number> {
  const r = await placeOrder<Order>(t, market.buyer, buyBody(market.id, krw, PRICE, market.buyer.wallet.id));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.returnData.orderId;
}
const act = (id: number, what: string, token: string, body?: unknown) =>
  t.call<Order>('POST', `/buy-orders/${id}/${what}`, { token, body });
const complete = (id: number, seller: Trader) =>
  act(id, 'complete', seller.token, { txid: 'bank-ref', stepUp: { password: seller.password } });
const buyerView = async (id: number, buyer: Trader) =>
  (await t.call<Order>('GET', `/my/buy-history/${id}`, { token: buyer.token })).body.returnData;
const statusOf = async (id: number) =>
  (await db().selectFrom('buy_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;
/** Moves an order's payment deadline (REQUESTED) or release deadline (PAID) 1 s into the past. */
const passPaymentDeadline = (id: number) =>
  db()
    .updateTable('buy_orders')
    .set({ payment_deadline: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
const passReleaseDeadline = (id: number) =>
  db()
    .updateTable('buy_orders')
    .set({ release_deadline: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
const openDisputeWindow = (id: number) =>
  db()
    .updateTable('buy_orders')
    .set({ dispute_opens_at: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
const ms = (iso: string | null) => new Date(iso ?? 0).getTime();

describe('the transition table (contract)', () => {
  it('names who may do what from each state', () => {
    expect(orderActionsFor('REQUESTED', 'buyer')).toEqual(['paid', 'cancel']);
    expect(orderActionsFor('PAID', 'buyer')).toEqual(['cancel', 'dispute']);
    expect(orderActionsFor('REQUESTED', 'seller')).toEqual(['reject', 'complete']);
    expect(orderActionsFor('PAID', 'seller')).toEqual(['complete', 'dispute']);
    expect(orderActionsFor('DISPUTED', 'seller')).toEqual([]);
    expect(orderActionsFor('DISPUTED', 'operator')).toEqual(['cancel', 'complete']);
    expect(orderActionsFor('EXPIRED', 'operator')).toEqual([]);
  });
});

describe('member transitions over HTTP', () => {
  it('REQUESTED -> PAID -> COMPLETED, with the deadlines on every view', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    const v = await buyerView(id, m.buyer);
    expect(v.status).toBe('REQUESTED');
    expect(ms(v.paymentDeadline) - ms(v.createdAt)).toBeGreaterThanOrEqual(WINDOW * 1000 - 1000);
    expect(ms(v.paymentDeadline) - ms(v.createdAt)).toBeLessThanOrEqual(WINDOW * 1000 + 1000);
    expect(v).toMatchObject({ paidAt: null, releaseDeadline: null, disputedAt: null, expiredAt: null });
    // only the buyer says PAID: the seller is refused as a non-buyer (404), a stranger too
    expect((await act(id, 'paid', m.seller.token)).status).toBe(404);
    const paid = await act(id, 'paid', m.buyer.token);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.returnData).toMatchObject({ status: 'PAID', paymentDeadline: null });
    const p = paid.body.returnData;
    expect(ms(p.releaseDeadline) - ms(p.paidAt)).toBe(RELEASE * 1000);
    expect(ms(p.disputeOpensAt) - ms(p.paidAt)).toBe(DISPUTE_AFTER * 1000);
    expect((await act(id, 'paid', m.buyer.token)).body.returnMessage).toBe('INVALID_STATE');
    // once PAID the seller can no longer reject (DECISIONS §11), only complete or dispute
    const rj = await act(id, 'reject', m.seller.token);
    expect([rj.status, rj.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    const sellerView = await t.call<Order>('GET', `/my/sell-history/${id}`, { token: m.seller.token });
    expect(sellerView.body.returnData).toMatchObject({ status: 'PAID', paidAt: p.paidAt });
    const list = await t.call<{ list: Order[] }>('GET', '/my/buy-history', { token: m.buyer.token });
    expect(list.body.returnData.list[0]).toMatchObject({ orderId: id, status: 'PAID', paidAt: p.paidAt });
    const done = await complete(id, m.seller);
    expect(done.body.returnData).toMatchObject({ status: 'COMPLETED', releaseDeadline: null });
    expect(await available(t, m.buyer.id, 'BTC')).toBe(2_000_000n);
    await t.assertLedger();
  });

  it('the buyer may cancel from PAID: the quantity returns, nothing else moves', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    await act(id, 'paid', m.buyer.token);
    const c = await act(id, 'cancel', m.buyer.token);
    expect(c.body.returnData.status).toBe('CANCELED');
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('1');
    expect(await escrow(t, m.seller.id, 'BTC')).toBe(100_000_000n);
    await t.assertLedger();
  });

  it('disputes: the seller at once, the buyer only after ORDER_DISPUTE_AFTER_SEC; each side states once', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    const early = await act(id, 'dispute', m.seller.token, { reason: 'PAYMENT_NOT_RECEIVED', statement });
    expect([early.status, early.body.returnMessage]).toEqual([409, 'INVALID_STATE']); // not from REQUESTED
    await act(id, 'paid', m.buyer.token);
    const tooEarly = await t.call<{ from: string }>('POST', `/buy-orders/${id}/dispute`, {
      token: m.buyer.token,
      body: { reason: 'COINS_NOT_RELEASED', statement },
    });
    expect([tooEarly.status, tooEarly.body.returnMessage]).toEqual([422, 'DISPUTE_TOO_EARLY']);
    expect(typeof tooEarly.body.returnData.from).toBe('string');
    const bad = await act(id, 'dispute', m.buyer.token, { reason: 'NOPE', statement: 'short' });
    expect(bad.status).toBe(400);
    expect(await statusOf(id)).toBe('PAID');
    await openDisputeWindow(id);
    const opened = await act(id, 'dispute', m.buyer.token, { reason: 'COINS_NOT_RELEASED', statement });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.returnData).toMatchObject({
      status: 'DISPUTED',
      dispute: {
        reason: 'COINS_NOT_RELEASED',
        openedBy: 'BUYER',
        buyerStatement: statement,
        sellerStatement: null,
      },
    });
    expect(typeof opened.body.returnData.disputedAt).toBe('string');
    const again = await act(id, 'dispute', m.buyer.token, { reason: 'OTHER', statement });
    expect(again.body.returnMessage).toBe('INVALID_STATE');
    const answer = await act(id, 'dispute', m.seller.token, {
      reason: 'PAYMENT_NOT_RECEIVED',
      statement: 'No deposit from this name arrived in my account.',
    });
    expect(answer.body.returnData).toMatchObject({
      status: 'DISPUTED',
      buyerLoginId: m.buyer.nickname,
      dispute: { openedBy: 'BUYER', sellerStatement: 'No deposit from this name arrived in my account.' },
    });
    // in DISPUTED only an operator ends the order
    for (const [what, token, body] of [
      ['cancel', m.buyer.token, undefined],
      ['reject', m.seller.token, undefined],
      ['complete', m.seller.token, { txid: 'x', stepUp: { password: m.seller.password } }],
      ['paid', m.buyer.token, undefined],
    ] as const) {
      expect((await act(id, what, token, body)).body.returnMessage, what).toBe('INVALID_STATE');
    }
    const stranger = await btcMarket(t, op);
    expect((await act(id, 'dispute', stranger.buyer.token, { reason: 'OTHER', statement })).status).toBe(404);
    await t.assertLedger();
  });
});

describe('timers', () => {
  it('expiry: REQUESTED past paymentDeadline becomes EXPIRED once, the quantity returns', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m, 2_000_000);
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('0.96');
    expect(await runOrderTimers(db())).toBe(0);
    await passPaymentDeadline(id);
    const deadline = (
      await db()
        .selectFrom('buy_orders')
        .select('payment_deadline')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).payment_deadline;
    expect(await runOrderTimers(db())).toBe(1);
    expect(await runOrderTimers(db())).toBe(0);
    const v = await buyerView(id, m.buyer);
    expect(v).toMatchObject({ status: 'EXPIRED', expiredAt: new Date(deadline).toISOString() });
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('1');
    expect((await act(id, 'paid', m.buyer.token)).body.returnMessage).toBe('INVALID_STATE');
    await t.assertLedger();
  });

  it('expiry on a closed listing returns the escrow to the seller under one ledger ref', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m, 2_000_000);
    await t.call('POST', `/api/v1/sell-listings/${m.id}/close`, { token: m.seller.token });
    expect(await escrow(t, m.seller.id, 'BTC')).toBe(4_000_000n);
    await passPaymentDeadline(id);
    await Promise.all([runOrderTimers(db()), runOrderTimers(db()), buyerView(id, m.buyer)]);
    expect(await escrow(t, m.seller.id, 'BTC')).toBe(0n);
    expect(await available(t, m.seller.id, 'BTC')).toBe(100_000_000n);
    const entries = await db()
      .selectFrom('ledger_entries')
      .select('ref')
      .where('ref', 'like', `order:${id}:%`)
      .execute();
    expect(entries.map((e) => e.ref)).toEqual([`order:${id}:release`]);
    await t.assertLedger();
  });

  it('a read settles an order past its deadline: never shown as live, even before the timer runs', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    await passPaymentDeadline(id);
    const list = await t.call<{ list: Order[] }>('GET', '/my/sell-history', { token: m.seller.token });
    expect(list.body.returnData.list.find((o) => o.orderId === id)?.status).toBe('EXPIRED');
    const id2 = await order(m);
    await passPaymentDeadline(id2);
    const ops = await t.call<Order>('POST', `/ops/api/v1/orders/${id2}/complete`, {
      token: op.token,
      body: { reason: 'late', txid: 'x' },
    });
    expect([ops.status, ops.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    expect(await statusOf(id2)).toBe('EXPIRED');
    await t.assertLedger();
  });

  it('escalation: PAID past releaseDeadline becomes DISPUTED (COINS_NOT_RELEASED, stated by the system)', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    await act(id, 'paid', m.buyer.token);
    await passReleaseDeadline(id);
    // the seller's late release loses to the timer: the order is now an operator's to resolve
    const late = await complete(id, m.seller);
    expect([late.status, late.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    const v = await buyerView(id, m.buyer);
    expect(v).toMatchObject({
      status: 'DISPUTED',
      dispute: { reason: 'COINS_NOT_RELEASED', openedBy: 'SYSTEM', buyerStatement: null },
    });
    expect(String(v.dispute?.systemStatement)).toContain('release deadline');
    expect(await runOrderTimers(db())).toBe(0);
    expect(await escrow(t, m.seller.id, 'BTC')).toBe(100_000_000n);
    await t.assertLedger();
  });

  it('the interval timer of a running app settles due orders by itself and stops on close', async () => {
    const t2 = await createTestApp({ ORDER_TIMER_INTERVAL_MS: '50' });
    try {
      const op2 = await operator(t2);
      const m = await btcMarket(t2, op2);
      const r = await placeOrder<Order>(t2, m.buyer, buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id));
      const id = r.body.returnData.orderId;
      await t2.app.deps.db
        .updateTable('buy_orders')
        .set({ payment_deadline: sql<Date>`now() - interval '1 second'` })
        .where('id', '=', id)
        .execute();
      const row = () =>
        t2.app.deps.db
          .selectFrom('buy_orders')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      for (let i = 0; i < 200 && (await row()).status === 'REQUESTED'; i++) {
        await new Promise((res) => setTimeout(res, 25));
      }
      expect((await row()).status).toBe('EXPIRED');
      await t2.assertLedger();
    } finally {
      await t2.close();
    }
  });
});

describe('griefing limits', () => {
  it('MAX_LIVE_ORDERS_PER_BUYER (3) across REQUESTED, PAID and DISPUTED; an ending frees a slot', async () => {
    const m = await btcMarket(t, op);
    const a = await order(m);
    const b = await order(m);
    const c = await order(m);
    await act(a, 'paid', m.buyer.token);
    await act(b, 'paid', m.buyer.token);
    await act(b, 'dispute', m.seller.token, { reason: 'WRONG_AMOUNT', statement });
    const fourth = await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id));
    expect([fourth.status, fourth.body.returnMessage, fourth.body.returnData]).toEqual([
      422,
      'TOO_MANY_LIVE_ORDERS',
      { max: 3 },
    ]);
    await complete(c, m.seller);
    expect((await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id))).status).toBe(
      200,
    );
    await t.assertLedger();
  });

  it('one order per purchase phone check: a second order needs a new check', async () => {
    const m = await btcMarket(t, op);
    const first = await t.call('POST', '/buy-orders', {
      token: m.buyer.token,
      body: buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id),
    });
    expect(first.status).toBe(200);
    const second = await t.call('POST', '/buy-orders', {
      token: m.buyer.token,
      body: buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id),
    });
    expect([second.status, second.body.returnMessage]).toEqual([422, 'PURCHASE_NOT_VERIFIED']);
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('0.98');
  });

  it.runIf(onPostgres)('on PostgreSQL, parallel orders on one check: exactly one is accepted', async () => {
    const m = await btcMarket(t, op);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.call('POST', '/buy-orders', {
          token: m.buyer.token,
          body: buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id),
        }),
      ),
    );
    const codes = results.map((r) => r.body.returnMessage).sort();
    expect(codes).toEqual(['OK', ...Array(5).fill('PURCHASE_NOT_VERIFIED')]);
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('0.98');
    await t.assertLedger();
  });

  it('BUYER_CANCELS_PER_DAY (3) cancels or expiries block new orders until 24 h after the last', async () => {
    const m = await btcMarket(t, op);
    // a seller's reject is not the buyer's doing and does not count
    const r0 = await order(m);
    await act(r0, 'reject', m.seller.token);
    const a = await order(m);
    await act(a, 'cancel', m.buyer.token);
    const b = await order(m);
    await act(b, 'paid', m.buyer.token);
    await act(b, 'cancel', m.buyer.token);
    const c = await order(m);
    await passPaymentDeadline(c);
    const blocked = await placeOrder<{ until: string }>(
      t,
      m.buyer,
      buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id),
    );
    expect([blocked.status, blocked.body.returnMessage]).toEqual([422, 'PURCHASE_BLOCKED']);
    const last = await db()
      .selectFrom('buy_orders')
      .select((eb) => eb.fn.max('ended_at').as('at'))
      .where('buyer_id', '=', m.buyer.id)
      .executeTakeFirstOrThrow();
    expect(ms(blocked.body.returnData.until)).toBe(new Date(last.at as Date).getTime() + 24 * 3600_000);
    expect(await statusOf(c)).toBe('EXPIRED');
    // a day later the block is over
    await db()
      .updateTable('buy_orders')
      .set({ ended_at: sql<Date>`ended_at - interval '24 hours'` })
      .where('buyer_id', '=', m.buyer.id)
      .execute();
    expect((await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, PRICE, m.buyer.wallet.id))).status).toBe(
      200,
    );
    await t.assertLedger();
  });
});

describe('reputation (sellerStats)', () => {
  it('counts completions, the 30-day rate of the seller-decided endings and the median release time', async () => {
    const m = await btcMarket(t, op);
    const card = async () =>
      (
        await t.call<{ list: { listingId: number; sellerStats: unknown; sellerLoginId: string }[] }>(
          'GET',
          '/api/v1/sell-listings?coin=BTC&size=50',
        )
      ).body.returnData.list.find((l) => l.listingId === m.id);
    const fresh = await card();
    expect(fresh).toMatchObject({
      sellerLoginId: m.seller.nickname,
      sellerStats: { completedTrades: 0, completionRatePct: null, medianReleaseSec: null },
    });
    for (let i = 0; i < 4; i++) await complete(await order(m), m.seller);
    // the buyer's own cancel is not the seller's doing
    await act(await order(m), 'cancel', m.buyer.token);
    expect((await card())?.sellerStats).toMatchObject({ completedTrades: 4, completionRatePct: null });
    await act(await order(m), 'reject', m.seller.token);
    const stats = (await card())?.sellerStats as Record<string, unknown>;
    expect(stats).toMatchObject({ completedTrades: 4, completionRatePct: 80 });
    expect(stats.medianReleaseSec).toBeNull(); // 4 releases: below 5
    expect(typeof stats.memberSince).toBe('string');
    await complete(await order(m), m.seller);
    const after = (await card())?.sellerStats as Record<string, number>;
    expect(after).toMatchObject({ completedTrades: 5, completionRatePct: 83 });
    expect(after.medianReleaseSec).toBeGreaterThanOrEqual(0);
    const id = await order(m);
    expect((await buyerView(id, m.buyer)).sellerStats).toEqual(after);
    const best = await t.call<{ listingId: number; sellerStats: unknown }[]>(
      'GET',
      '/api/v1/sell-listings/best',
    );
    expect(best.body.returnData.find((l) => l.listingId === m.id)?.sellerStats).toEqual(after);
  });
});

describe('operators and disputes', () => {
  it('the queue lists DISPUTED oldest first with both statements and waiting time; resolutions are audited', async () => {
    const m1 = await btcMarket(t, op);
    const m2 = await btcMarket(t, op);
    const a = await order(m1);
    const b = await order(m2, 2_000_000);
    for (const [id, m] of [
      [b, m2],
      [a, m1],
    ] as const) {
      await act(id, 'paid', m.buyer.token);
      await act(id, 'dispute', m.seller.token, { reason: 'PAYMENT_NOT_RECEIVED', statement });
    }
    await db()
      .updateTable('buy_orders')
      .set({ disputed_at: sql<Date>`disputed_at - interval '10 minutes'` })
      .where('id', '=', b)
      .execute();
    const q = await t.call<{ list: (Order & { waitingSec: number })[] }>(
      'GET',
      '/ops/api/v1/orders?status=DISPUTED&size=50',
      { token: op.token },
    );
    const mine = q.body.returnData.list.filter((o) => o.orderId === a || o.orderId === b);
    expect(mine.map((o) => o.orderId)).toEqual([b, a]);
    expect(mine[0]?.waitingSec).toBeGreaterThanOrEqual(600);
    expect(mine[0]?.dispute).toMatchObject({
      openedBy: 'SELLER',
      sellerStatement: statement,
      buyerStatement: null,
    });
    const all = q.body.returnData.list.map((o) => ms(o.disputedAt));
    expect([...all].sort((x, y) => x - y)).toEqual(all);
    const page1 = await t.call<{ list: Order[]; nextCursor: string }>(
      'GET',
      '/ops/api/v1/orders?status=DISPUTED&size=1',
      {
        token: op.token,
      },
    );
    const page2 = await t.call<{ list: Order[] }>(
      'GET',
      `/ops/api/v1/orders?status=DISPUTED&size=1&cursor=${page1.body.returnData.nextCursor}`,
      { token: op.token },
    );
    expect(page2.body.returnData.list[0]?.orderId).toBe(q.body.returnData.list[1]?.orderId);

    const released = await t.call<Order>('POST', `/ops/api/v1/orders/${a}/complete`, {
      token: op.token,
      body: { reason: 'bank statement shows the deposit', txid: 'ops-release' },
    });
    expect(released.body.returnData).toMatchObject({
      status: 'COMPLETED',
      reason: 'bank statement shows the deposit',
    });
    expect(await available(t, m1.buyer.id, 'BTC')).toBe(2_000_000n);
    const returned = await t.call<Order>('POST', `/ops/api/v1/orders/${b}/cancel`, {
      token: op.token,
      body: { reason: 'no deposit on the statement' },
    });
    expect(returned.body.returnData.status).toBe('CANCELED');
    expect((await myListing(t, m2.id, m2.seller.token)).remainingQty).toBe('1');
    const log = await db()
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'data'])
      .where('target_type', '=', 'order')
      .where('target_id', 'in', [String(a), String(b)])
      .orderBy('id')
      .execute();
    expect(log.map((l) => [l.action, l.target_id])).toEqual([
      ['order.complete', String(a)],
      ['order.cancel', String(b)],
    ]);
    expect(JSON.stringify(log[0]?.data)).toContain('DISPUTED');
    // an operator release counts against the seller's completion rate, not as their own release
    const s = await db()
      .selectFrom('seller_stats')
      .select(['completed_trades', 'recent'])
      .where('member_id', '=', m1.seller.id)
      .executeTakeFirstOrThrow();
    expect(Number(s.completed_trades)).toBe(1);
    expect(s.recent.map((e) => e[1])).toEqual([0]);
    await t.assertLedger();
  });
});

describe.runIf(onPostgres)('races on PostgreSQL: one order, many moves at once, exactly one winner', () => {
  const everyone = (id: number, m: { buyer: Trader; seller: Trader }) => [
    act(id, 'paid', m.buyer.token),
    act(id, 'cancel', m.buyer.token),
    complete(id, m.seller),
    act(id, 'reject', m.seller.token),
    act(id, 'dispute', m.seller.token, { reason: 'OTHER', statement }),
    t.call('POST', `/ops/api/v1/orders/${id}/cancel`, { token: op.token, body: { reason: 'race' } }),
    runOrderTimers(db()),
    runOrderTimers(db()),
  ];
  const endings = ['CANCELED', 'COMPLETED', 'REJECTED', 'EXPIRED'];

  for (let round = 0; round < 3; round++) {
    it(`REQUESTED, deadline not passed (round ${round}): one ending wins, the rest are refused`, async () => {
      const m = await btcMarket(t, op);
      const id = await order(m);
      const [paid, cancel, done, reject, dispute, opsCancel] = (await Promise.all(everyone(id, m))) as {
        status: number;
        body: { returnData: Order };
      }[];
      const ended = [cancel, done, reject, opsCancel].filter((r) => r?.status === 200);
      expect(ended).toHaveLength(1);
      const final = await statusOf(id);
      expect(endings).toContain(final);
      expect(ended[0]?.body.returnData.status).toBe(final);
      for (const r of [paid, dispute]) expect([200, 409]).toContain(r?.status);
      const listing = await myListing(t, m.id, m.seller.token);
      expect(listing.remainingQty).toBe(final === 'COMPLETED' ? '0.98' : '1');
      expect(await available(t, m.buyer.id, 'BTC')).toBe(final === 'COMPLETED' ? 2_000_000n : 0n);
      await t.assertLedger();
    });
  }

  it('REQUESTED at its deadline: the expiry wins over every party and runs exactly once', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    await passPaymentDeadline(id);
    const results = await Promise.all(everyone(id, m));
    const moved = results.filter((r): r is number => typeof r === 'number');
    expect(moved.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(1);
    for (const r of results) if (typeof r !== 'number') expect(r.status).toBe(409);
    expect(await statusOf(id)).toBe('EXPIRED');
    expect((await myListing(t, m.id, m.seller.token)).remainingQty).toBe('1');
    await t.assertLedger();
  });

  it('PAID at its release deadline: the escalation wins; no release, no cancel', async () => {
    const m = await btcMarket(t, op);
    const id = await order(m);
    await act(id, 'paid', m.buyer.token);
    await passReleaseDeadline(id);
    const [done, cancel, ...timers] = await Promise.all([
      complete(id, m.seller),
      act(id, 'cancel', m.buyer.token),
      runOrderTimers(db()),
      runOrderTimers(db()),
      runOrderTimers(db()),
    ]);
    expect([done.status, cancel.status]).toEqual([409, 409]);
    expect((timers as number[]).reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(1);
    expect(await statusOf(id)).toBe('DISPUTED');
    expect(await escrow(t, m.seller.id, 'BTC')).toBe(100_000_000n);
    await t.assertLedger();
  });
});
