import type { OpsMemberDetail, OpsSummary } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { buyBody, listVia, openListing, trader, verifiedBuyer } from '../orders/test-kit.ts';
import { createWallet } from '../wallets/index.ts';

let t: TestApp;
let op: FixtureMember;

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR' });
});
afterAll(() => t.close());

const summary = async () => {
  const r = await t.call<OpsSummary>('GET', '/ops/api/v1/summary', { token: op.token });
  expect(r.status).toBe(200);
  return r.body.returnData;
};

describe('GET /ops/api/v1/summary and member detail', () => {
  it('counts what waits for an operator; the member detail shows balances and live trade', async () => {
    expect(await summary()).toEqual({
      pendingListings: 0,
      pendingWithdrawals: 0,
      requestedOrders: 0,
      disputedOrders: 0,
      members: 1,
      suspendedMembers: 0,
    });

    const pendingSeller = await trader(t, 'XRP', '1000');
    await listVia(t, pendingSeller, { minQty: '10', maxQty: '100', unitPriceKrw: 3000 });

    const seller = await trader(t, 'BTC', '1');
    const listingId = await openListing(t, seller, op, {
      minQty: '0.001',
      maxQty: '0.5',
      unitPriceKrw: 140_000_000,
    });
    const buyer = await verifiedBuyer(t, 'BTC');
    const order = await t.call('POST', '/buy-orders', {
      token: buyer.token,
      body: buyBody(listingId, 1_400_000, 140_000_000, buyer.wallet.id),
    });
    expect(order.status, JSON.stringify(order.body)).toBe(200);

    const ethHolder = await createMember(t);
    const wallet = await createWallet(t.app.deps.db, ethHolder.id, 'ETH');
    await fundMember(t, ethHolder.id, 'ETH', '2');
    const w = await t.call('POST', '/transfer/request', {
      token: ethHolder.token,
      body: {
        fromWalletId: wallet.id,
        destType: 'EXTERNAL',
        amount: '1',
        destExternalAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        stepUp: { password: ethHolder.password },
      },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(200);

    await t.call('POST', `/ops/api/v1/members/${pendingSeller.id}/suspend`, {
      token: op.token,
      body: { reason: 'test' },
    });
    expect(await summary()).toEqual({
      pendingListings: 1,
      pendingWithdrawals: 1,
      requestedOrders: 1,
      disputedOrders: 0,
      members: 5,
      suspendedMembers: 1,
    });
    await t.assertLedger();

    const detail = await t.call<OpsMemberDetail>('GET', `/ops/api/v1/members/${seller.id}`, {
      token: op.token,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.returnData).toMatchObject({
      id: seller.id,
      loginId: seller.loginId,
      bankName: 'KB국민은행',
      accountNo: '12345678901234',
      activeListings: 1,
      requestedOrdersAsBuyer: 0,
      requestedOrdersAsSeller: 1,
    });
    expect(detail.body.returnData.wallets).toEqual([
      expect.objectContaining({
        coinCode: 'BTC',
        balance: '0.5',
        escrowBalance: '0.5',
        id: seller.wallet.id,
      }),
    ]);
    const buyerDetail = await t.call<OpsMemberDetail>('GET', `/ops/api/v1/members/${buyer.id}`, {
      token: op.token,
    });
    expect(buyerDetail.body.returnData).toMatchObject({ requestedOrdersAsBuyer: 1, activeListings: 0 });
    const unknown = await t.call('GET', '/ops/api/v1/members/99999999', { token: op.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.returnMessage).toBe('NOT_FOUND_MEMBER_ID');
    const asMember = await t.call('GET', `/ops/api/v1/members/${seller.id}`, { token: seller.token });
    expect(asMember.status).toBe(403);
  });
});
