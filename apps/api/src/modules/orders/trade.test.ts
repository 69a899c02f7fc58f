import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import {
  available,
  BTC_PRICE,
  btcMarket,
  buyBody,
  escrow,
  type MyListing,
  myListing,
  operator,
  placeOrder,
} from './test-kit.ts';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
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

describe('a whole trade', () => {
  it('INTERNAL: listed, approved, bought, completed; the buyer gets exactly requestQty', async () => {
    const { seller, buyer, id } = await market();
    const trade = await t.call<{ list: Listing[] }>('GET', '/api/v1/sell-listings?coin=BTC');
    const card = trade.body.returnData.list.find((l) => l.listingId === id);
    expect(card).toMatchObject({ remainingQty: '1', status: 'OPEN', sellerName: 'P***********e' });

    const r = await placeOrder<Order>(t, buyer, buyBody(id, 1_000_000, PRICE, buyer.wallet.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.returnData).toMatchObject({
      status: 'REQUESTED',
      coinCode: 'BTC',
      requestQty: '0.02',
      requestKrwAmount: 1_000_000,
      destType: 'INTERNAL',
      destAddress: buyer.wallet.address,
      address: seller.wallet.address,
      // the nickname is the one public name (DECISIONS §11): the login id never reaches the other party
      sellerLoginId: seller.nickname,
      sellerAccountHolder: 'Park Younghee',
      sellerPhone: seller.phoneE164,
      sellerBankName: 'KB국민은행',
      sellerAccountNo: '123456789012',
      sellerNickName: seller.nickname,
      sellerCountryCode: '82',
      reserveDate: null,
      reserveTime: null,
    });
    const orderId = r.body.returnData.orderId;
    expect((await listing(id, seller.token)).remainingQty).toBe('0.98');
    expect(await escrow(t, seller.id, 'BTC')).toBe(SAT);
    await t.assertLedger();

    const done = await t.call<Order>('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: '  0xabc123  ', stepUp: { password: seller.password } },
    });
    expect(done.body.returnData).toMatchObject({
      status: 'COMPLETED',
      txid: '0xabc123',
      buyerLoginId: buyer.nickname,
    });
    expect(await available(t, buyer.id, 'BTC')).toBe(2_000_000n);
    expect(await escrow(t, seller.id, 'BTC')).toBe(98_000_000n);
    const transfers = await t.app.deps.db
      .selectFrom('transfers')
      .select(['type', 'status', 'member_id', 'wallet_id', 'amount', 'dest_type'])
      .where('buy_order_id', '=', orderId)
      .orderBy('id')
      .execute();
    expect(transfers).toEqual([
      {
        type: 'WITHDRAW',
        status: 'COMPLETED',
        member_id: seller.id,
        wallet_id: seller.wallet.id,
        amount: '0.02000000',
        dest_type: 'INTERNAL',
      },
      {
        type: 'DEPOSIT',
        status: 'COMPLETED',
        member_id: buyer.id,
        wallet_id: buyer.wallet.id,
        amount: '0.02000000',
        dest_type: 'INTERNAL',
      },
    ]);
    const bh = await t.call<Order>('GET', `/my/buy-history/${orderId}`, { token: buyer.token });
    expect(bh.body.returnData).toMatchObject({
      status: 'COMPLETED',
      txid: '0xabc123',
      sellerAddress: seller.wallet.address,
    });
    expect(bh.body.returnData.sellerAccountHolder).toBe('P***********e');
    expect(typeof bh.body.returnData.completedAt).toBe('string');
    const list = await t.call<{ list: Order[]; totalCount: number }>('GET', '/my/sell-history', {
      token: seller.token,
    });
    expect(list.body.returnData.list[0]).toMatchObject({
      orderId,
      buyerNickname: buyer.nickname,
      status: 'COMPLETED',
    });
    const again = await t.call('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: 'x', stepUp: { password: seller.password } },
    });
    expect([again.status, again.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    await t.assertLedger();
  });

  it('EXTERNAL: completion leaves a PENDING withdrawal refundable to the buyer', async () => {
    const { seller, buyer, id } = await market();
    const body = {
      ...buyBody(id, 2_500_000, PRICE, 0),
      destType: 'EXTERNAL',
      destWalletId: null,
      destAddress: BTC_ADDRESS,
    };
    const r = await t.call<Order>('POST', '/buy-orders', { token: buyer.token, body });
    expect(r.body.returnData).toMatchObject({
      destType: 'EXTERNAL',
      destAddress: BTC_ADDRESS,
      requestQty: '0.05',
    });
    const orderId = r.body.returnData.orderId;
    const pendingBefore = await balanceOf(t.app.deps.db, account.withdrawalPending('BTC'));
    await t.call('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: 'bank-ref-1', stepUp: { password: seller.password } },
    });
    expect(await balanceOf(t.app.deps.db, account.withdrawalPending('BTC'))).toBe(pendingBefore + 5_000_000n);
    expect(await available(t, buyer.id, 'BTC')).toBe(0n);
    const w = await t.app.deps.db
      .selectFrom('transfers')
      .select(['type', 'status', 'dest_type', 'address', 'refund_member_id', 'member_id', 'amount'])
      .where('buy_order_id', '=', orderId)
      .execute();
    expect(w).toEqual([
      {
        type: 'WITHDRAW',
        status: 'PENDING',
        dest_type: 'EXTERNAL',
        address: BTC_ADDRESS,
        refund_member_id: buyer.id,
        member_id: seller.id,
        amount: '0.05000000',
      },
    ]);
    await t.assertLedger();
    // the operator sends it (withdrawals are the wallets module's calls)
    const queue = await t.call<{ list: { withdrawalId: number; buyOrderId: number | null }[] }>(
      'GET',
      '/ops/api/v1/withdrawals?status=PENDING',
      { token: op.token },
    );
    const wd = queue.body.returnData.list.find((x) => x.buyOrderId === orderId);
    expect(wd).toBeDefined();
    const sent = await t.call<{ status: string }>(
      'POST',
      `/ops/api/v1/withdrawals/${wd?.withdrawalId}/complete`,
      {
        token: op.token,
        body: { txid: 'f'.repeat(64) },
      },
    );
    expect(sent.body.returnData.status).toBe('COMPLETED');
    expect(await balanceOf(t.app.deps.db, account.withdrawalPending('BTC'))).toBe(pendingBefore);
    await t.assertLedger();
  });

  it('EXTERNAL delivery rejected by the operator refunds the buyer', async () => {
    const { seller, buyer, id } = await market();
    const body = {
      ...buyBody(id, 1_000_000, PRICE, 0),
      destType: 'EXTERNAL',
      destWalletId: null,
      destAddress: BTC_ADDRESS,
    };
    const r = await t.call<Order>('POST', '/buy-orders', { token: buyer.token, body });
    const orderId = r.body.returnData.orderId;
    await t.call('POST', `/buy-orders/${orderId}/complete`, {
      token: seller.token,
      body: { txid: 'bank-ref-2', stepUp: { password: seller.password } },
    });
    const w = await t.app.deps.db
      .selectFrom('transfers')
      .select('id')
      .where('buy_order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const rej = await t.call('POST', `/ops/api/v1/withdrawals/${w.id}/reject`, {
      token: op.token,
      body: { reason: 'address on a sanctions list' },
    });
    expect(rej.status).toBe(200);
    expect(await available(t, buyer.id, 'BTC')).toBe(2_000_000n);
    expect(await escrow(t, seller.id, 'BTC')).toBe(98_000_000n);
    await t.assertLedger();
  });

  it('reserve purchase: stores the Seoul wall time of the deposit', async () => {
    const { buyer, id } = await market();
    const seoul = new Date(Date.now() + 9 * 3600_000 + 24 * 3600_000);
    const reserveDate = seoul.toISOString().slice(0, 10);
    const r = await placeOrder<Order>(t, buyer, {
      ...buyBody(id, 500_000, PRICE, buyer.wallet.id),
      reserveDate,
      reserveTime: '14:45',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.returnData).toMatchObject({ reserveDate, reserveTime: '14:45', status: 'REQUESTED' });
    await t.assertLedger();
  });
});
