import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS } from '../identity/test-kit.ts';
import {
  BTC_PRICE,
  btcMarket,
  buyBody,
  operator,
  placeOrder,
  type Trader,
  walletFor,
} from '../orders/test-kit.ts';

/*
 * Limits per identity level (DECISIONS §19): buying, listing and external withdrawals need KYC_TRADE_LEVEL
 * (default 1) -> 422 KYC_REQUIRED {level}; above KYC1_DAILY_KRW traded in 24 h a member needs level 2;
 * KYC_TRADE_LEVEL=0 lifts both.
 */

const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

async function memberAt(t: TestApp, kycLevel: 0 | 1 | 2): Promise<Trader> {
  const m = await createMember(t, { kycLevel });
  return { ...m, wallet: await walletFor(t, m.id, 'BTC') };
}

describe('with KYC_TRADE_LEVEL=1 (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...RELAXED_LIMITS });
  });
  afterAll(() => t?.close());

  it('refuses a level-0 member buying, listing and withdrawing outside, and nothing moves', async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const m = await memberAt(t, 0);
    await fundMember(t, m.id, 'BTC', '0.5');
    const buy = await placeOrder(t, m, buyBody(id, 1_000_000, BTC_PRICE, m.wallet.id));
    const list = await t.call('POST', '/api/v1/sell-listings', {
      token: m.token,
      body: {
        walletId: m.wallet.id,
        minQty: '0.01',
        maxQty: '0.1',
        unitPriceKrw: BTC_PRICE,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
        stepUp: { password: m.password },
      },
    });
    const out = await t.call('POST', '/transfer/request', {
      token: m.token,
      body: {
        fromWalletId: m.wallet.id,
        destType: 'EXTERNAL',
        amount: '0.01',
        destExternalAddress: EXTERNAL_BTC,
        stepUp: { password: m.password },
      },
    });
    for (const r of [buy, list, out]) {
      expect([r.status, r.body.returnMessage, r.body.returnData]).toEqual([
        422,
        'KYC_REQUIRED',
        { level: 1 },
      ]);
    }
    const orders = await t.app.deps.db
      .selectFrom('buy_orders')
      .select('id')
      .where('buyer_id', '=', m.id)
      .execute();
    expect(orders).toEqual([]);
    await t.assertLedger();
  });

  it('lets level 1 trade up to KYC1_DAILY_KRW in 24 h (buying and selling count), then wants level 2', async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const m = await memberAt(t, 1);
    const first = await placeOrder(t, m, buyBody(id, 3_000_000, BTC_PRICE, m.wallet.id));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await placeOrder(t, m, buyBody(id, 2_000_000, BTC_PRICE, m.wallet.id));
    expect(second.status).toBe(200);
    const over = await placeOrder(t, m, buyBody(id, 1_000_000, BTC_PRICE, m.wallet.id));
    expect([over.status, over.body.returnMessage, over.body.returnData]).toEqual([
      422,
      'KYC_REQUIRED',
      { level: 2 },
    ]);
    // a cancelled order moved nothing and does not count
    const cancel = await t.call('POST', `/buy-orders/${first.body.returnData.orderId}/cancel`, {
      token: m.token,
    });
    expect(cancel.status).toBe(200);
    const after = await placeOrder(t, m, buyBody(id, 3_000_000, BTC_PRICE, m.wallet.id));
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    // level 2 has no daily limit
    const big = await memberAt(t, 2);
    for (const krw of [5_000_000, 5_000_000]) {
      expect((await placeOrder(t, big, buyBody(id, krw, BTC_PRICE, big.wallet.id))).status).toBe(200);
    }
    await t.assertLedger();
  });

  it('checks the daily sum under the buyer’s row lock: of parallel purchases over the limit only some pass', async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const m = await memberAt(t, 1);
    const results = await Promise.all(
      [1, 2, 3, 4].map(async () => placeOrder(t, m, buyBody(id, 2_000_000, BTC_PRICE, m.wallet.id))),
    );
    const passed = results.filter((r) => r.status === 200).length;
    // each order needs its own purchase check; whatever passes, the sum stays within 5,000,000
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed * 2_000_000).toBeLessThanOrEqual(5_000_000);
    const refused = results.filter((x) => x.status !== 200).map((r) => r.body.returnMessage);
    expect(refused).toContain('KYC_REQUIRED');
  });
});

describe('with KYC_TRADE_LEVEL=0 (a test network)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, KYC_TRADE_LEVEL: '0' });
  });
  afterAll(() => t?.close());

  it('a level-0 member buys above KYC1_DAILY_KRW', async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const m = await memberAt(t, 0);
    const r = await placeOrder(t, m, buyBody(id, 6_000_000, BTC_PRICE, m.wallet.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});
