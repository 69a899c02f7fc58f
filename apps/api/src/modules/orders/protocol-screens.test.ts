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
});
