import { fromUnits, toUnits } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import { available, BTC_PRICE, btcMarket, buyBody, escrow, operator, placeOrder } from './test-kit.ts';
import { tradeFee } from './trade-fee.ts';

/** The per-trade fee of DECISIONS §3: TRADE_FEE_BPS of requestQty, floored, paid by the buyer. */

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const PRICE = BTC_PRICE;

type Detail = { orderId: number; status: string; feeQty: string; requestQty: string };

describe('tradeFee', () => {
  it('takes bps of the quantity in base units, rounded down', () => {
    expect(tradeFee(2_345_678n, 100)).toBe(23_456n); // 23,456.78 -> 23,456
    expect(tradeFee(99n, 100)).toBe(0n);
    expect(tradeFee(100_000_000n, 1000)).toBe(10_000_000n);
    expect(tradeFee(123_456_789n, 0)).toBe(0n);
    expect(tradeFee(123_456_789n, 25)).toBe(308_641n); // 308,641.9725
  });

  it('refuses a bps value that is not a whole number in range', () => {
    expect(() => tradeFee(1n, -1)).toThrow(RangeError);
    expect(() => tradeFee(1n, 1.5)).toThrow(RangeError);
  });
});

describe('TRADE_FEE_BPS configuration', () => {
  it('defaults to 0 and accepts 0..1000 whole basis points only', () => {
    expect(loadConfig({}).tradeFeeBps).toBe(0);
    expect(loadConfig({ TRADE_FEE_BPS: '1000' }).tradeFeeBps).toBe(1000);
    for (const bad of ['1001', '-1', '2.5', 'ten']) {
      expect(() => loadConfig({ TRADE_FEE_BPS: bad }), bad).toThrow(/TRADE_FEE_BPS/);
    }
  });
});

/**
 * Quantities bought through the API have at most 4 decimals, so any whole bps of them is a whole number of
 * base units. To prove the floor to the satoshi, the order is given an 8-decimal quantity in the database,
 * the listing's remainingQty moved by the same amount so the escrow invariants still hold.
 */
async function setOddQty(t: TestApp, orderId: number, qty: string) {
  const db = t.app.deps.db;
  const o = await db
    .selectFrom('buy_orders')
    .select(['request_qty', 'listing_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const l = await db
    .selectFrom('sell_listings')
    .select('remaining_qty')
    .where('id', '=', o.listing_id)
    .executeTakeFirstOrThrow();
  const delta = toUnits(qty) - toUnits(o.request_qty);
  await db
    .updateTable('sell_listings')
    .set({ remaining_qty: fromUnits(toUnits(l.remaining_qty) - delta) })
    .where('id', '=', o.listing_id)
    .execute();
  await db.updateTable('buy_orders').set({ request_qty: qty }).where('id', '=', orderId).execute();
}

const fees = (t: TestApp) => balanceOf(t.app.deps.db, account.fees('BTC'));
const pending = (t: TestApp) => balanceOf(t.app.deps.db, account.withdrawalPending('BTC'));

async function deliveryRows(t: TestApp, orderId: number) {
  const rows = await t.app.deps.db
    .selectFrom('transfers')
    .select(['type', 'member_id', 'amount', 'fee'])
    .where('buy_order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, amount: toUnits(r.amount), fee: toUnits(r.fee) }));
}

describe('with TRADE_FEE_BPS=100', () => {
  let t: TestApp;
  let op: FixtureMember;
  beforeAll(async () => {
    t = await createTestApp({ TRADE_FEE_BPS: '100' });
    op = await operator(t);
  });
  afterAll(() => t.close());

  it('INTERNAL: the buyer receives requestQty - floor(1%), the fees account the fee', async () => {
    const { seller, buyer, id } = await btcMarket(t, op);
    const r = await placeOrder<Detail>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const orderId = r.body.returnData.orderId;
    await setOddQty(t, orderId, '0.02345678'); // 1% = 23,456.78 base units
    const feesBefore = await fees(t);

    const done = await t.call<Detail>('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: 'bank-ref-fee-1', stepUp: { password: seller.password } },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.returnData).toMatchObject({ status: 'COMPLETED', feeQty: '0.00023456' });
    expect(await available(t, buyer.id, 'BTC')).toBe(2_322_222n);
    expect(await fees(t)).toBe(feesBefore + 23_456n);
    expect(await escrow(t, seller.id, 'BTC')).toBe(100_000_000n - 2_345_678n);
    expect(await deliveryRows(t, orderId)).toEqual([
      { type: 'WITHDRAW', member_id: seller.id, amount: 2_322_222n, fee: 23_456n },
      { type: 'DEPOSIT', member_id: buyer.id, amount: 2_322_222n, fee: 23_456n },
    ]);

    const mine = await t.call<Detail>('GET', `/my/buy-history/${orderId}`, { token: buyer.token });
    expect(mine.body.returnData).toMatchObject({ requestQty: '0.02345678', feeQty: '0.00023456' });
    const sold = await t.call<Detail>('GET', `/my/sell-history/${orderId}`, { token: seller.token });
    expect(sold.body.returnData.feeQty).toBe('0.00023456');
    const list = await t.call<{ list: Detail[] }>('GET', `/ops/api/v1/orders?memberId=${buyer.id}`, {
      token: op.token,
    });
    expect(list.body.returnData.list.find((o) => o.orderId === orderId)?.feeQty).toBe('0.00023456');
    await t.assertLedger();
  });

  it('a live order shows feeQty 0 until it completes', async () => {
    const { buyer, id } = await btcMarket(t, op);
    const r = await placeOrder<Detail>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    const mine = await t.call<Detail>('GET', `/my/buy-history/${r.body.returnData.orderId}`, {
      token: buyer.token,
    });
    expect(mine.body.returnData).toMatchObject({ status: 'REQUESTED', feeQty: '0' });
    await t.assertLedger();
  });

  it('EXTERNAL (operator complete): requestQty - fee goes pending; a reject refunds exactly that', async () => {
    const { seller, buyer, id } = await btcMarket(t, op);
    const body = { ...buyBody(id, 2_500_000, PRICE, 0), destType: 'EXTERNAL', destAddress: BTC_ADDRESS };
    const r = await placeOrder<Detail>(t, buyer, { ...body, destWalletId: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const orderId = r.body.returnData.orderId;
    await setOddQty(t, orderId, '0.05000099'); // 1% = 50,000.99 base units
    const [feesBefore, pendingBefore] = [await fees(t), await pending(t)];

    const done = await t.call<Detail>('POST', `/ops/api/v1/orders/${orderId}/complete`, {
      token: op.token,
      body: { reason: 'seller confirmed the deposit by phone', txid: 'bank-ref-fee-2' },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.returnData).toMatchObject({ status: 'COMPLETED', feeQty: '0.0005' });
    expect(await pending(t)).toBe(pendingBefore + 4_950_099n);
    expect(await fees(t)).toBe(feesBefore + 50_000n);
    const rows = await deliveryRows(t, orderId);
    expect(rows).toEqual([{ type: 'WITHDRAW', member_id: seller.id, amount: 4_950_099n, fee: 50_000n }]);
    await t.assertLedger();

    const w = await t.app.deps.db
      .selectFrom('transfers')
      .select('id')
      .where('buy_order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const rej = await t.call('POST', `/ops/api/v1/withdrawals/${w.id}/reject`, {
      token: op.token,
      body: { reason: 'address on a sanctions list' },
    });
    expect(rej.status, JSON.stringify(rej.body)).toBe(200);
    expect(await available(t, buyer.id, 'BTC')).toBe(4_950_099n);
    expect(await pending(t)).toBe(pendingBefore);
    expect(await fees(t)).toBe(feesBefore + 50_000n); // the trade happened: its fee is kept
    const mine = await t.call<Detail>('GET', `/my/buy-history/${orderId}`, { token: buyer.token });
    expect(mine.body.returnData).toMatchObject({ status: 'COMPLETED', feeQty: '0.0005' });
    await t.assertLedger();
  });
});

describe('with the default TRADE_FEE_BPS (0)', () => {
  let t: TestApp;
  let op: FixtureMember;
  beforeAll(async () => {
    t = await createTestApp();
    op = await operator(t);
  });
  afterAll(() => t.close());

  it('delivers requestQty in full, with no fee posting and feeQty 0', async () => {
    const { seller, buyer, id } = await btcMarket(t, op);
    const r = await placeOrder<Detail>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    const orderId = r.body.returnData.orderId;
    await setOddQty(t, orderId, '0.02345678');
    const done = await t.call<Detail>('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: 'bank-ref-fee-3', stepUp: { password: seller.password } },
    });
    expect(done.body.returnData).toMatchObject({ status: 'COMPLETED', feeQty: '0' });
    expect(await available(t, buyer.id, 'BTC')).toBe(2_345_678n);
    expect(await fees(t)).toBe(0n);
    expect(await deliveryRows(t, orderId)).toEqual([
      { type: 'WITHDRAW', member_id: seller.id, amount: 2_345_678n, fee: 0n },
      { type: 'DEPOSIT', member_id: buyer.id, amount: 2_345_678n, fee: 0n },
    ]);
    const postings = await t.app.deps.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
      .select('p.id')
      .where('e.ref', '=', `order:${orderId}:complete`)
      .execute();
    expect(postings).toHaveLength(2);
    await t.assertLedger();
  });
});
