import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  available,
  BTC_PRICE,
  btcMarket,
  buyBody,
  escrow,
  type MyListing,
  myListing,
  openListing,
  operator,
  placeOrder,
  trader,
  verifiedBuyer,
} from './test-kit.ts';

const PRICE = BTC_PRICE;
const SAT = 100_000_000n;

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
});
afterAll(() => t.close());

type Order = Record<string, unknown> & { orderId: number; status: string };
type Listing = MyListing;

const listing = (id: number, token: string) => myListing(t, id, token);

const market = (minQty?: string, maxQty?: string) => btcMarket(t, op, minQty, maxQty);

describe('ending orders returns the coins where DECISIONS §4 says', () => {
  it('buyer cancel and seller reject put the quantity back on the listing', async () => {
    const { seller, buyer, id } = await market();
    const a = await placeOrder<Order>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    const b = await placeOrder<Order>(t, buyer, buyBody(id, 3_000_000, PRICE, buyer.wallet.id));
    expect((await listing(id, seller.token)).remainingQty).toBe('0.92');
    // the seller may not cancel as buyer, the buyer may not reject as seller: 404, nothing changes
    expect(
      (await t.call('POST', `/buy-orders/${a.body.returnData.orderId}/cancel`, { token: seller.token }))
        .status,
    ).toBe(404);
    expect(
      (await t.call('POST', `/buy-orders/${a.body.returnData.orderId}/reject`, { token: buyer.token }))
        .status,
    ).toBe(404);
    const c = await t.call<Order>('POST', `/buy-orders/${a.body.returnData.orderId}/cancel`, {
      token: buyer.token,
    });
    expect(c.body.returnData.status).toBe('CANCELED');
    const rj = await t.call<Order>('POST', `/buy-orders/${b.body.returnData.orderId}/reject`, {
      token: seller.token,
    });
    expect(rj.body.returnData.status).toBe('REJECTED');
    expect((await listing(id, seller.token)).remainingQty).toBe('1');
    expect(await escrow(t, seller.id, 'BTC')).toBe(SAT);
    expect(await available(t, buyer.id, 'BTC')).toBe(0n);
    const twice = await t.call('POST', `/buy-orders/${a.body.returnData.orderId}/cancel`, {
      token: buyer.token,
    });
    expect([twice.status, twice.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    await t.assertLedger();
  });

  it('close with a live order: the free part returns at once, the order part when the order ends', async () => {
    const { seller, buyer, id } = await market();
    const a = await placeOrder<Order>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    const b = await placeOrder<Order>(t, buyer, buyBody(id, 1_500_000, PRICE, buyer.wallet.id));
    const closed = await t.call<Listing>('POST', `/api/v1/sell-listings/${id}/close`, {
      token: seller.token,
    });
    expect(closed.body.returnData.status).toBe('CLOSED');
    expect(await available(t, seller.id, 'BTC')).toBe(95_000_000n);
    expect(await escrow(t, seller.id, 'BTC')).toBe(5_000_000n);
    await t.assertLedger();
    await t.call('POST', `/buy-orders/${a.body.returnData.orderId}/cancel`, { token: buyer.token });
    expect(await available(t, seller.id, 'BTC')).toBe(97_000_000n);
    await t.call('POST', `/buy-orders/${b.body.returnData.orderId}/complete`, {
      token: seller.token,
      body: { txid: 't1', stepUp: { password: seller.password } },
    });
    expect(await escrow(t, seller.id, 'BTC')).toBe(0n);
    expect(await available(t, buyer.id, 'BTC')).toBe(3_000_000n);
    await t.assertLedger();
  });

  it('operator cancel and complete act like the seller, with a reason, audited', async () => {
    const { seller, buyer, id } = await market();
    const a = await placeOrder<Order>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    const b = await placeOrder<Order>(t, buyer, buyBody(id, 2_000_000, PRICE, buyer.wallet.id));
    const oa = a.body.returnData.orderId;
    const ob = b.body.returnData.orderId;
    const noTxid = await t.call('POST', `/ops/api/v1/orders/${ob}/complete`, {
      token: op.token,
      body: { reason: 'x', txid: ' ' },
    });
    expect(noTxid.status).toBe(400);
    const c = await t.call<Order>('POST', `/ops/api/v1/orders/${oa}/cancel`, {
      token: op.token,
      body: { reason: 'buyer asked by phone' },
    });
    expect(c.body.returnData).toMatchObject({ status: 'CANCELED', reason: 'buyer asked by phone' });
    const d = await t.call<Order>('POST', `/ops/api/v1/orders/${ob}/complete`, {
      token: op.token,
      body: { reason: 'seller unreachable, deposit confirmed', txid: 'ops-1' },
    });
    expect(d.body.returnData).toMatchObject({ status: 'COMPLETED', txid: 'ops-1' });
    const wrong = await t.call('POST', `/ops/api/v1/orders/${oa}/complete`, {
      token: op.token,
      body: { reason: 'r', txid: 'x' },
    });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    expect((await listing(id, seller.token)).remainingQty).toBe('0.96');
    expect(await available(t, buyer.id, 'BTC')).toBe(4_000_000n);
    const log = await t.app.deps.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('target_type', '=', 'order')
      .where('target_id', 'in', [String(oa), String(ob)])
      .orderBy('id')
      .execute();
    expect(log).toEqual([
      { action: 'order.cancel', target_id: String(oa) },
      { action: 'order.complete', target_id: String(ob) },
    ]);
    const list = await t.call<{ list: Order[] }>(
      'GET',
      `/ops/api/v1/orders?memberId=${buyer.id}&status=COMPLETED`,
      { token: op.token },
    );
    expect(list.body.returnData.list.map((o) => o.orderId)).toEqual([ob]);
    await t.assertLedger();
  });

  it('a listing below minQty hides while orders live, reappears on a cancel, closes itself when the last ends', async () => {
    const seller = await trader(t, 'ETH', '1');
    const id = await openListing(t, seller, op, { minQty: '0.5', maxQty: '1', unitPriceKrw: 5_000_000 });
    const buyer = await verifiedBuyer(t, 'ETH');
    const ids = async () =>
      (await t.call<{ list: Listing[] }>('GET', '/api/v1/sell-listings?coin=ETH')).body.returnData.list.map(
        (l) => l.listingId,
      );
    const buy = () => placeOrder<Order>(t, buyer, buyBody(id, 3_000_000, 5_000_000, buyer.wallet.id));
    const a = await buy();
    expect(a.body.returnData.requestQty).toBe('0.6');
    expect(await ids()).not.toContain(id);
    expect((await listing(id, seller.token)).status).toBe('OPEN');
    await t.call('POST', `/buy-orders/${a.body.returnData.orderId}/cancel`, { token: buyer.token });
    expect(await listing(id, seller.token)).toMatchObject({ status: 'OPEN', remainingQty: '1' });
    expect(await ids()).toContain(id);
    const b = await buy();
    await t.call('POST', `/buy-orders/${b.body.returnData.orderId}/complete`, {
      token: seller.token,
      body: { txid: 'z', stepUp: { password: seller.password } },
    });
    expect(await listing(id, seller.token)).toMatchObject({ status: 'CLOSED', remainingQty: '0' });
    expect(await available(t, seller.id, 'ETH')).toBe(40_000_000n);
    expect(await escrow(t, seller.id, 'ETH')).toBe(0n);
    expect(await available(t, buyer.id, 'ETH')).toBe(60_000_000n);
    await t.assertLedger();
  });
});
