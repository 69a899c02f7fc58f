import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, markPhoneVerified } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import {
  available,
  buyBody,
  escrow,
  listVia,
  openListing,
  operator,
  placeOrder,
  type Trader,
  trader,
  verifiedBuyer,
  walletFor,
} from './test-kit.ts';

const PRICE = 50_000_000;
let t: TestApp;
let op: FixtureMember;
let seller: Trader;
let buyer: Trader;
let listingId: number;
beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
  seller = await trader(t, 'BTC', '1');
  listingId = await openListing(t, seller, op, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: PRICE });
  buyer = await verifiedBuyer(t, 'BTC');
});
afterAll(() => t.close());

async function orderCount(): Promise<number> {
  const r = await t.app.deps.db
    .selectFrom('buy_orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function refused(token: string, body: Record<string, unknown>, status: number, code: string) {
  const before = await orderCount();
  const r = await t.call<{ fields?: Record<string, string> }>('POST', '/buy-orders', { token, body });
  expect([r.status, r.body.returnMessage], JSON.stringify(r.body)).toEqual([status, code]);
  expect(await orderCount()).toBe(before);
  return r.body.returnData;
}

describe('purchase rules (SPEC §5 "Purchase", DECISIONS §4, §10)', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    ...buyBody(listingId, 1_000_000, PRICE, buyer.wallet.id),
    ...over,
  });

  it('refuses amounts: above 9,500,000 won, below ceil(minQty x price), fractional won, wrong requestQty', async () => {
    await refused(buyer.token, body({ krwAmount: 9_500_001, requestQty: '0.19' }), 422, 'ABOVE_MAX_PURCHASE');
    await refused(buyer.token, body({ krwAmount: 499_999, requestQty: '0.0099' }), 422, 'BELOW_MIN_PURCHASE');
    const f = await refused(buyer.token, body({ krwAmount: 1_000_000.5 }), 400, 'VALIDATION_FAILED');
    expect(f?.fields?.krwAmount).toBe('PRICE_INTEGER');
    await refused(buyer.token, body({ requestQty: '0.0201' }), 400, 'QTY_MISMATCH');
    // 1,234,567 won / 50,000,000 = 0.02469134 -> floored to 0.0246; the unrounded value is refused
    await refused(buyer.token, body({ krwAmount: 1_234_567, requestQty: '0.02469134' }), 400, 'QTY_MISMATCH');
    const ok = await placeOrder(t, buyer, body({ krwAmount: 1_234_567, requestQty: '0.0246' }));
    expect(ok.status).toBe(200);
    const exact = await placeOrder(t, buyer, body({ krwAmount: 9_500_000, requestQty: '0.1900' }));
    expect(exact.status).toBe(200);
    await t.assertLedger();
  });

  it('refuses unknown, unapproved and own listings, and more than remainingQty', async () => {
    await refused(buyer.token, body({ listingId: 999_999 }), 404, 'LISTING_NOT_FOUND');
    const s2 = await trader(t, 'BTC', '1');
    const pending = await listVia(t, s2, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: PRICE });
    await refused(buyer.token, body({ listingId: pending }), 422, 'LISTING_NOT_OPEN');
    await markPhoneVerified(t, seller.phoneE164, 'member', seller.id);
    await refused(seller.token, body({ destWalletId: seller.wallet.id }), 422, 'SELF_TRADE');
    const small = await trader(t, 'BTC', '0.05');
    const l3 = await openListing(t, small, op, { minQty: '0.01', maxQty: '0.05', unitPriceKrw: PRICE });
    await refused(
      buyer.token,
      buyBody(l3, 3_000_000, PRICE, buyer.wallet.id), // 0.06 > 0.05
      422,
      'INSUFFICIENT_LISTING_QTY',
    );
  });

  it('a suspended seller trades no more: the listing leaves the trade list and takes no order', async () => {
    const s = await trader(t, 'BTC', '1');
    const id = await openListing(t, s, op, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: PRICE });
    const listed = async () =>
      (
        await t.call<{ list: { listingId: number }[] }>('GET', '/api/v1/sell-listings?size=50')
      ).body.returnData.list.map((l) => l.listingId);
    expect(await listed()).toContain(id);
    // Through the console's route, as an operator does it: a write through the API drops the answering
    // instance's trade-list cache before it answers. (A bare UPDATE reaches the cache only by NOTIFY, which
    // may land after the next read; the cache tests cover that path.)
    const suspended = await t.call('POST', `/ops/api/v1/members/${s.id}/suspend`, {
      token: op.token,
      body: { reason: 'fraud report' },
    });
    expect(suspended.status).toBe(200);
    expect(await listed()).not.toContain(id);
    await refused(buyer.token, body({ listingId: id }), 422, 'LISTING_NOT_OPEN');
  });

  it('refuses destinations: another member wallet, a wallet of another coin, no wallet, a bad address', async () => {
    const other = await trader(t, 'BTC');
    await refused(buyer.token, body({ destWalletId: other.wallet.id }), 404, 'WALLET_NOT_FOUND');
    const eth = await walletFor(t, buyer.id, 'ETH');
    await refused(buyer.token, body({ destWalletId: eth.id }), 404, 'WALLET_NOT_FOUND');
    await refused(buyer.token, body({ destWalletId: undefined }), 404, 'WALLET_NOT_FOUND');
    const ext = { destType: 'EXTERNAL', destWalletId: undefined };
    await refused(
      buyer.token,
      body({ ...ext, destAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx' }),
      400,
      'INVALID_ADDRESS',
    );
    await refused(
      buyer.token,
      body({ ...ext, destAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }),
      400,
      'INVALID_ADDRESS',
    );
    await refused(buyer.token, body(ext), 400, 'INVALID_ADDRESS');
  });

  it('refuses a reserve time in the past, off the 15-minute step, half given or impossible', async () => {
    const tomorrow = new Date(Date.now() + 9 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() + 9 * 3600_000 - 24 * 3600_000).toISOString().slice(0, 10);
    for (const [reserveDate, reserveTime, reason] of [
      [yesterday, '12:00', 'PAST'],
      [tomorrow, '12:10', 'TIME_STEP'],
      [tomorrow, undefined, 'PAIR'],
      ['2030-02-30', '12:00', 'DATE_INVALID'],
      [tomorrow, '24:00', 'DATE_INVALID'],
      ['2099-01-01', '12:00', 'TOO_FAR'],
    ] as const) {
      const data = await refused(
        buyer.token,
        body({ reserveDate, reserveTime }),
        422,
        'RESERVE_TIME_INVALID',
      );
      expect(data).toMatchObject({ reason });
    }
    await refused(
      buyer.token,
      body({ reserveDate: '2030/01/01', reserveTime: '12:00' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('needs the buyer phone verified (purpose member) within the last 5 minutes', async () => {
    const b = await trader(t, 'BTC');
    await refused(b.token, buyBody(listingId, 1_000_000, PRICE, b.wallet.id), 422, 'PURCHASE_NOT_VERIFIED');
    await markPhoneVerified(t, b.phoneE164, 'signup');
    await refused(b.token, buyBody(listingId, 1_000_000, PRICE, b.wallet.id), 422, 'PURCHASE_NOT_VERIFIED');
    await markPhoneVerified(t, b.phoneE164, 'member', b.id);
    await t.app.deps.db
      .updateTable('sms_codes')
      .set({ verified_at: sql<Date>`now() - interval '301 seconds'` })
      .where('phone_e164', '=', b.phoneE164)
      .execute();
    await refused(b.token, buyBody(listingId, 1_000_000, PRICE, b.wallet.id), 422, 'PURCHASE_NOT_VERIFIED');
    await markPhoneVerified(t, b.phoneE164, 'member', b.id);
    const r = await t.call('POST', '/buy-orders', {
      token: b.token,
      body: buyBody(listingId, 1_000_000, PRICE, b.wallet.id),
    });
    expect(r.status).toBe(200);
  });

  it('refuses a blank, over-long, emoji or control-character deposit note and another member order ids with 404, changing nothing', async () => {
    const o = await placeOrder<{ orderId: number }>(t, buyer, body());
    const id = o.body.returnData.orderId;
    const refused: [unknown, string][] = [
      ['   ', 'TXID_REQUIRED'],
      [undefined, 'TXID_REQUIRED'],
      ['x'.repeat(101), 'TOO_LONG'],
      ['😀😀😀', 'INVALID_FORMAT'],
      ['김민수 🔥', 'INVALID_FORMAT'],
      ['memo\u0007bell', 'INVALID_FORMAT'],
      ['a\u200bb', 'INVALID_FORMAT'],
    ];
    for (const [txid, code] of refused) {
      const r = await t.call<{ fields: Record<string, string> }>('POST', `/buy-orders/${id}/complete`, {
        token: seller.token,
        body: { txid, stepUp: { password: seller.password } },
      });
      expect([txid, r.status, r.body.returnData.fields.txid]).toEqual([txid, 400, code]);
    }
    const detail = await t.call<{ status: string }>('GET', `/my/sell-history/${id}`, { token: seller.token });
    expect(detail.body.returnData.status).toBe('REQUESTED');
    const stranger = await createMember(t);
    const calls: [string, string, unknown?][] = [
      ['POST', `/buy-orders/${id}/cancel`],
      ['POST', `/buy-orders/${id}/reject`],
      ['POST', `/buy-orders/${id}/complete`, { txid: 'abc', stepUp: { password: stranger.password } }],
      ['GET', `/my/buy-history/${id}`],
      ['GET', `/my/sell-history/${id}`],
      ['POST', `/api/v1/sell-listings/${listingId}/close`],
      ['GET', `/my/sell/${listingId}`],
    ];
    const escrowBefore = await escrow(t, seller.id, 'BTC');
    for (const [method, url, b] of calls) {
      const r = await t.call(method, url, { token: stranger.token, body: b });
      expect([url, r.status]).toEqual([url, 404]);
    }
    const still = await t.call<{ status: string }>('GET', `/my/buy-history/${id}`, { token: buyer.token });
    expect(still.body.returnData.status).toBe('REQUESTED');
    expect(await escrow(t, seller.id, 'BTC')).toBe(escrowBefore);
    expect(await available(t, buyer.id, 'BTC')).toBe(0n);
    await t.assertLedger();
  });
});

describe('concurrency', () => {
  it.runIf(onPostgres)(
    'on PostgreSQL, 100 parallel buy orders on a listing covering 10: exactly 10 REQUESTED, never an oversell',
    async () => {
      const s = await trader(t, 'ETH', '1');
      const id = await openListing(t, s, op, { minQty: '0.1', maxQty: '1', unitPriceKrw: 1_000_000 });
      const buyers = await Promise.all(Array.from({ length: 100 }, () => verifiedBuyer(t, 'ETH')));
      const results = await Promise.all(
        buyers.map((b) =>
          t.call('POST', '/buy-orders', {
            token: b.token,
            body: buyBody(id, 100_000, 1_000_000, b.wallet.id),
          }),
        ),
      );
      const codes = results.map((r) => r.body.returnMessage);
      expect(codes.filter((c) => c === 'OK')).toHaveLength(10);
      expect(codes.filter((c) => c !== 'OK').every((c) => c === 'INSUFFICIENT_LISTING_QTY')).toBe(true);
      const l = await t.app.deps.db
        .selectFrom('sell_listings')
        .select('remaining_qty')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(l.remaining_qty).toBe('0.00000000');
      expect(await escrow(t, s.id, 'ETH')).toBe(100_000_000n);
      await t.assertLedger();
    },
  );
});
