import { receiveQty } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  available,
  buyBody,
  escrow,
  openListing,
  operator,
  placeOrder,
  type Trader,
  trader,
  verifiedBuyer,
} from '../orders/test-kit.ts';

/**
 * PATCH /api/v1/sell-listings/{id}: the seller edits price and quantities of an active listing with the
 * step-up (DECISIONS §13); the escrow follows maxQty in one transaction with its ledger entry; a price more
 * than 10% from the market sends a live listing back to review. The static price file says 1 BTC =
 * 140,000,000 won (modules/prices/static-prices.json).
 */

const MARKET = 140_000_000;
const SAT = 100_000_000n;

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
});
afterAll(() => t.close());

interface Detail {
  listingId: number;
  status: string;
  minQty: string;
  maxQty: string;
  remainingQty: string;
  unitPriceKrw: number;
}

/** A seller holding `fund` BTC with an approved listing of 0.01-`maxQty` at the market price. */
async function market(fund = '2', maxQty = '1') {
  const seller = await trader(t, 'BTC', fund);
  const id = await openListing(t, seller, op, { minQty: '0.01', maxQty, unitPriceKrw: MARKET });
  return { seller, id };
}

function edit(seller: Trader | FixtureMember, id: number, terms: object, stepUp: object | null = {}) {
  const body = stepUp === null ? terms : { ...terms, stepUp: { password: seller.password, ...stepUp } };
  return t.call<Detail>('PATCH', `/api/v1/sell-listings/${id}`, { token: seller.token, body });
}

async function editEntries(id: number): Promise<number> {
  const r = await sql<{
    n: string;
  }>`select count(*)::text as n from ledger_entries where ref like ${`listing:${id}:edit:%`}`.execute(
    t.app.deps.db,
  );
  return Number(r.rows[0]?.n ?? 0);
}

describe('PATCH /api/v1/sell-listings/{id}', () => {
  it('raises and lowers maxQty with the escrow, keeps a near-market price open, and a retry moves nothing', async () => {
    const { seller, id } = await market();
    const up = await edit(seller, id, { minQty: '0.02', maxQty: '1.5', unitPriceKrw: 145_000_000 });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.returnData).toMatchObject({
      status: 'OPEN',
      minQty: '0.02',
      maxQty: '1.5',
      remainingQty: '1.5',
      unitPriceKrw: 145_000_000,
    });
    expect(await escrow(t, seller.id, 'BTC')).toBe((SAT * 3n) / 2n);
    expect(await available(t, seller.id, 'BTC')).toBe(SAT / 2n);
    // the same terms again: no second movement
    const again = await edit(seller, id, { minQty: '0.02', maxQty: '1.5', unitPriceKrw: 145_000_000 });
    expect(again.status).toBe(200);
    expect(await editEntries(id)).toBe(1);

    const down = await edit(seller, id, { minQty: '0.02', maxQty: '0.5', unitPriceKrw: 145_000_000 });
    expect(down.body.returnData).toMatchObject({ status: 'OPEN', maxQty: '0.5', remainingQty: '0.5' });
    expect(await escrow(t, seller.id, 'BTC')).toBe(SAT / 2n);
    expect(await available(t, seller.id, 'BTC')).toBe((SAT * 3n) / 2n);
    expect(await editEntries(id)).toBe(2);
    await t.assertLedger();
  });

  it('sends an open listing back to review when the price moves more than 10% from the market', async () => {
    const { seller, id } = await market();
    const r = await edit(seller, id, { minQty: '0.01', maxQty: '1', unitPriceKrw: 160_000_000 });
    expect(r.body.returnData.status).toBe('PENDING_REVIEW');
    const list = await t.call<{ list: { listingId: number }[] }>('GET', '/api/v1/sell-listings?coin=BTC');
    expect(list.body.returnData.list.map((l) => l.listingId)).not.toContain(id);
    // the operator approves it again like a new one
    const approved = await t.call<Detail>('POST', `/ops/api/v1/listings/${id}/approve`, { token: op.token });
    expect(approved.body.returnData.status).toBe('OPEN');
    await t.assertLedger();
  });

  it('keeps what live orders hold: remainingQty = new maxQty - held, and never below it', async () => {
    const { seller, id } = await market();
    const buyer = await verifiedBuyer(t, 'BTC');
    const placed = await placeOrder(t, buyer, buyBody(id, 7_000_000, MARKET, buyer.wallet.id));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const held = receiveQty(7_000_000, MARKET); // 0.05
    const r = await edit(seller, id, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: MARKET });
    expect(r.body.returnData).toMatchObject({ maxQty: '0.5', remainingQty: '0.45' });
    expect(held).toBe('0.05');
    const below = await edit(seller, id, { minQty: '0.01', maxQty: '0.04', unitPriceKrw: MARKET });
    expect(below.status).toBe(422);
    expect(below.body.returnMessage).toBe('INSUFFICIENT_LISTING_QTY');
    await t.assertLedger();
  });

  it('refuses without the step-up, for a stranger, beyond the balance and once ended; no partial write', async () => {
    const { seller, id } = await market('1', '1');
    const terms = { minQty: '0.01', maxQty: '2', unitPriceKrw: MARKET };
    const noStep = await edit(seller, id, terms, null);
    expect([noStep.status, noStep.body.returnMessage]).toEqual([422, 'STEP_UP_REQUIRED']);
    const wrong = await edit(seller, id, terms, { password: 'not-the-password1' });
    expect(wrong.status).toBe(400);
    const stranger = await createMember(t);
    const other = await edit(stranger, id, terms);
    expect([other.status, other.body.returnMessage]).toEqual([404, 'LISTING_NOT_FOUND']);
    const broke = await edit(seller, id, terms);
    expect([broke.status, broke.body.returnMessage]).toEqual([422, 'INSUFFICIENT_BALANCE']);
    const bad = await edit(seller, id, { minQty: '0.5', maxQty: '0.1', unitPriceKrw: MARKET });
    expect(bad.status).toBe(400);
    const still = await t.call<Detail>('GET', `/my/sell/${id}`, { token: seller.token });
    expect(still.body.returnData).toMatchObject({ maxQty: '1', remainingQty: '1', status: 'OPEN' });
    expect(await editEntries(id)).toBe(0);

    await t.call('POST', `/api/v1/sell-listings/${id}/close`, { token: seller.token });
    const ended = await edit(seller, id, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: MARKET });
    expect([ended.status, ended.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    await t.assertLedger();
  });

  it('has exactly one winner against a parallel purchase that the new maxQty cannot also hold', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { seller, id } = await market('1', '0.1');
      const buyer = await verifiedBuyer(t, 'BTC');
      // 9,500,000 won buys 0.0678 BTC; the edit leaves room for 0.05 only: one of the two must fail.
      const [order, edited] = await Promise.all([
        placeOrder(t, buyer, buyBody(id, 9_500_000, MARKET, buyer.wallet.id)),
        edit(seller, id, { minQty: '0.01', maxQty: '0.05', unitPriceKrw: MARKET }),
      ]);
      const wins = [order.status, edited.status].filter((s) => s === 200).length;
      expect(wins, `${JSON.stringify(order.body)} ${JSON.stringify(edited.body)}`).toBe(1);
      const loser = order.status === 200 ? edited : order;
      expect(loser.status).toBe(422);
      await t.assertLedger();
    }
  });
});
