import { maskPhone } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from './test-kit.ts';

/**
 * DECISIONS §10 (holder name) applied to the seller's phone number: it reaches only a buyer with a live order on
 * the listing; everyone else (visitors, other members, the same buyer once the order ended) sees it masked or
 * not at all.
 */

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
});
afterAll(() => t.close());

/** The national digits of an E.164 number, the part that must never leak in any form. */
const digitsOf = (e164: string) => e164.replace(/^\+82/, '');

describe("the seller's phone number", () => {
  it('goes to the buyer only while the order is live, never to a stranger', async () => {
    const { seller, buyer, id } = await btcMarket(t, op);
    const stranger = await createMember(t);
    const secret = digitsOf(seller.phoneE164);

    const placed = await placeOrder<{ orderId: number; sellerPhone: string }>(
      t,
      buyer,
      buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.returnData.orderId;
    expect(placed.body.returnData.sellerPhone).toBe(seller.phoneE164);
    const live = await t.call<{ sellerPhone: string }>('GET', `/my/buy-history/${orderId}`, {
      token: buyer.token,
    });
    expect(live.body.returnData.sellerPhone).toBe(seller.phoneE164);

    // A stranger, signed in or not, reads every public and guessable route: the digits appear in none.
    const reads = [
      await t.call('GET', '/api/v1/sell-listings?coin=BTC'),
      await t.call('GET', '/api/v1/sell-listings/best'),
      await t.call('GET', '/api/v1/sell-listings?coin=BTC', { token: stranger.token }),
      await t.call('GET', `/my/sell/${id}`, { token: stranger.token }),
      await t.call('GET', `/my/buy-history/${orderId}`, { token: stranger.token }),
      await t.call('GET', `/my/sell-history/${orderId}`, { token: stranger.token }),
      await t.call('GET', `/buy-orders/${orderId}/messages`, { token: stranger.token }),
    ];
    for (const r of reads) expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(reads.slice(3).map((r) => r.status)).toEqual([404, 404, 404, 404]);

    // The order ends: the buyer keeps a masked number (last four digits) on the receipt.
    const canceled = await t.call('POST', `/buy-orders/${orderId}/cancel`, { token: buyer.token });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const ended = await t.call<{ sellerPhone: string; status: string }>('GET', `/my/buy-history/${orderId}`, {
      token: buyer.token,
    });
    expect(ended.body.returnData.status).toBe('CANCELED');
    expect(ended.body.returnData.sellerPhone).toBe(maskPhone(seller.phoneE164));
    expect(ended.body.returnData.sellerPhone).toMatch(new RegExp(`^\\+82 \\*+${secret.slice(-4)}$`));
    expect(JSON.stringify(ended.body)).not.toContain(secret);

    // The seller still sees their own number on their side of the order.
    const own = await t.call<{ sellerPhone: string }>('GET', `/my/sell-history/${orderId}`, {
      token: seller.token,
    });
    expect(own.body.returnData.sellerPhone).toBe(seller.phoneE164);
  });
});
