import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from './test-kit.ts';

/**
 * What the trade protocol's screens read (DECISIONS §11): the seller's badge (GET /my/order-counts) and
 * the operator's order with both parties' bank details (GET /ops/api/v1/orders/{id}).
 */

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp({ ORDER_TIMER_INTERVAL_MS: '0' });
  op = await operator(t);
});
afterAll(() => t.close());

type Counts = { sellerWaiting: number; buyerWaiting: number };
const counts = async (token: string) =>
  (await t.call<Counts>('GET', '/my/order-counts', { token })).body.returnData;

describe('the screens of the trade protocol', () => {
  it('counts the orders waiting for a seller (REQUESTED, PAID) and a buyer (REQUESTED); expired ones drop out', async () => {
    const m = await btcMarket(t, op);
    expect(await counts(m.seller.token)).toEqual({ sellerWaiting: 0, buyerWaiting: 0 });
    const body = buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id);
    const a = (await placeOrder<{ orderId: number }>(t, m.buyer, body)).body.returnData.orderId;
    const b = (await placeOrder<{ orderId: number }>(t, m.buyer, body)).body.returnData.orderId;
    expect(await counts(m.seller.token)).toEqual({ sellerWaiting: 2, buyerWaiting: 0 });
    expect(await counts(m.buyer.token)).toEqual({ sellerWaiting: 0, buyerWaiting: 2 });

    await t.call('POST', `/buy-orders/${a}/paid`, { token: m.buyer.token });
    expect(await counts(m.seller.token)).toEqual({ sellerWaiting: 2, buyerWaiting: 0 });
    expect(await counts(m.buyer.token)).toEqual({ sellerWaiting: 0, buyerWaiting: 1 });

    // past its payment window the REQUESTED order expires on this read and no longer waits for anyone
    await t.app.deps.db
      .updateTable('buy_orders')
      .set({ payment_deadline: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', b)
      .execute();
    expect(await counts(m.seller.token)).toEqual({ sellerWaiting: 1, buyerWaiting: 0 });
    expect(await counts(m.buyer.token)).toEqual({ sellerWaiting: 0, buyerWaiting: 0 });

    const done = await t.call('POST', `/buy-orders/${a}/complete`, {
      token: m.seller.token,
      body: { txid: 'bank-ref', stepUp: { password: m.seller.password } },
    });
    expect(done.status).toBe(200);
    expect(await counts(m.seller.token)).toEqual({ sellerWaiting: 0, buyerWaiting: 0 });
    expect((await t.call('GET', '/my/order-counts')).status).toBe(401);
    await t.assertLedger();
  });

  it("shows an operator one order with both parties' names and bank accounts; members get 403", async () => {
    const m = await btcMarket(t, op);
    const r = await placeOrder<{ orderId: number }>(
      t,
      m.buyer,
      buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id),
    );
    const id = r.body.returnData.orderId;
    const view = await t.call<Record<string, unknown>>('GET', `/ops/api/v1/orders/${id}`, {
      token: op.token,
    });
    expect(view.status).toBe(200);
    expect(view.body.returnData).toMatchObject({
      orderId: id,
      status: 'REQUESTED',
      seller: {
        nickname: m.seller.nickname,
        name: 'Park Younghee',
        bankName: 'KB국민은행',
        accountNo: '123456789012',
      },
      buyer: { nickname: m.buyer.nickname, name: m.buyer.name },
    });
    const list = await t.call<{ list: { orderId: number; seller: { name: string } }[] }>(
      'GET',
      '/ops/api/v1/orders?status=REQUESTED&size=50',
      { token: op.token },
    );
    expect(list.body.returnData.list.find((o) => o.orderId === id)?.seller.name).toBe('Park Younghee');
    expect((await t.call('GET', `/ops/api/v1/orders/${id}`, { token: m.buyer.token })).status).toBe(403);
    expect((await t.call('GET', '/ops/api/v1/orders/99999999', { token: op.token })).status).toBe(404);
  });

  it("pages the operator's order list by status and by member, newest first, each order once", async () => {
    const m = await btcMarket(t, op);
    const body = buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id);
    const placed: number[] = [];
    for (let i = 0; i < 3; i++)
      placed.push((await placeOrder<{ orderId: number }>(t, m.buyer, body)).body.returnData.orderId);
    type Page = {
      list: { orderId: number; status: string }[];
      nextCursor: string | null;
      totalCount: number;
    };
    const walk = async (query: string) => {
      const ids: number[] = [];
      let cursor: string | null = null;
      // more reads than PostgreSQL's five custom plans, so a kept generic plan answers the later pages too
      for (let i = 0; i < 50; i++) {
        const path: string = `/ops/api/v1/orders?${query}&size=1${cursor ? `&cursor=${cursor}` : ''}`;
        const r: { status: number; body: { returnData: Page } } = await t.call<Page>('GET', path, {
          token: op.token,
        });
        expect(r.status).toBe(200);
        ids.push(...r.body.returnData.list.map((o) => o.orderId));
        cursor = r.body.returnData.nextCursor;
        if (!cursor) return { ids, total: r.body.returnData.totalCount };
      }
      throw new Error('no last page');
    };
    const requested = await t.app.deps.db
      .selectFrom('buy_orders')
      .select('id')
      .where('status', '=', 'REQUESTED')
      .orderBy('id', 'desc')
      .execute();
    const byStatus = await walk('status=REQUESTED');
    expect(byStatus.ids).toEqual(requested.map((r) => Number(r.id)));
    expect(byStatus.total).toBe(requested.length);
    const newestFirst = [...placed].reverse();
    expect((await walk(`status=REQUESTED&memberId=${m.buyer.id}`)).ids).toEqual(newestFirst);
    expect((await walk(`memberId=${m.seller.id}`)).ids).toEqual(newestFirst);
    expect((await walk(`status=COMPLETED&memberId=${m.buyer.id}`)).ids).toEqual([]);
  });
});
