import { toUnits } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { account, balanceOf, movements, post } from '../../ledger/index.ts';
import type { WalletRow } from './service.ts';

let t: TestApp;
let op: FixtureMember;
let seller: FixtureMember;
let buyer: FixtureMember;
let sellerEth: WalletRow;
let buyerEth: WalletRow;
const EXTERNAL_ETH = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

beforeAll(async () => {
  t = await createTestApp({ WITHDRAW_FEE_ETH: '0.01' });
  op = await createMember(t, { role: 'OPERATOR' });
  seller = await createMember(t);
  buyer = await createMember(t);
  sellerEth = await createWalletFor(t, seller.id, 'ETH');
  buyerEth = await createWalletFor(t, buyer.id, 'ETH');
});
afterAll(() => t.close());

const avail = (memberId: number) => balanceOf(t.app.deps.db, account.available(memberId, 'ETH'));
const auditRows = (action: string) =>
  t.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

interface Deposit {
  transferId: number;
  walletId: number;
  amount: string;
  created: boolean;
  status: string;
}
interface Withdrawal {
  withdrawalId: number;
  loginId: string;
  coinCode: string;
  amount: string;
  fee: string;
  status: string;
  txid: string | null;
  reason: string | null;
  buyOrderId: number | null;
  refundMemberId: number;
}

describe('operator deposits', () => {
  it('credits the wallet owning the address once per coin + txid + index, with an audit record', async () => {
    const body = { coinCode: 'ETH', address: sellerEth.address.toLowerCase(), amount: '2.5', txid: '0xabc1' };
    const first = await t.call<Deposit>('POST', '/ops/api/v1/deposits', { token: op.token, body });
    expect(first.status).toBe(200);
    expect(first.body.returnData).toMatchObject({
      walletId: sellerEth.id,
      amount: '2.5',
      created: true,
      status: 'COMPLETED',
    });
    const again = await t.call<Deposit>('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { ...body, address: sellerEth.address },
    });
    expect(again.status).toBe(200);
    expect(again.body.returnData).toMatchObject({
      transferId: first.body.returnData.transferId,
      created: false,
    });
    expect(await avail(seller.id)).toBe(toUnits('2.5'));
    expect((await auditRows('deposit.credit')).length).toBe(1);
    // Another output of the same transaction is another deposit.
    const second = await t.call<Deposit>('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { ...body, index: 1 },
    });
    expect(second.body.returnData.created).toBe(true);
    expect(await avail(seller.id)).toBe(toUnits('5'));
    const history = await t.call<{ list: { type: string; destType: string; txid: string }[] }>(
      'GET',
      `/transfer?walletId=${sellerEth.id}`,
      { token: seller.token },
    );
    expect(history.body.returnData.list.map((x) => [x.type, x.destType, x.txid])).toEqual([
      ['DEPOSIT', 'EXTERNAL', '0xabc1'],
      ['DEPOSIT', 'EXTERNAL', '0xabc1'],
    ]);
    await t.assertLedger();
  });

  it('refuses a replayed txid with another amount, unknown and invalid addresses, and members', async () => {
    const dup = await t.call('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { coinCode: 'ETH', address: sellerEth.address, amount: '9', txid: '0xabc1' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.returnMessage).toBe('DUPLICATE_ENTRY');
    const unknown = await t.call('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { coinCode: 'ETH', address: EXTERNAL_ETH, amount: '1', txid: '0xdef' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.returnMessage).toBe('WALLET_NOT_FOUND');
    const invalid = await t.call('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { coinCode: 'BTC', address: sellerEth.address, amount: '1', txid: '0xdef' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.returnMessage).toBe('INVALID_ADDRESS');
    const bad = await t.call('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { coinCode: 'ETH', address: sellerEth.address, amount: '0', txid: ' ' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.returnData).toEqual({ fields: { amount: 'AMOUNT_NOT_POSITIVE', txid: 'TXID_REQUIRED' } });
    const member = await t.call('POST', '/ops/api/v1/deposits', {
      token: seller.token,
      body: { coinCode: 'ETH', address: sellerEth.address, amount: '100', txid: '0xfree' },
    });
    expect(member.status).toBe(403);
    expect(await avail(seller.id)).toBe(toUnits('5'));
    await t.assertLedger();
  });
});

describe('operator withdrawals', () => {
  let pendingId: number;

  it('lists PENDING external withdrawals with the member loginId; members get 403', async () => {
    const r = await t.call<{ transferId: number }>('POST', '/transfer/request', {
      token: seller.token,
      body: {
        fromWalletId: sellerEth.id,
        destType: 'EXTERNAL',
        amount: '1',
        destExternalAddress: EXTERNAL_ETH,
        stepUp: { password: seller.password },
      },
    });
    pendingId = r.body.returnData.transferId;
    expect(await avail(seller.id)).toBe(toUnits('3.99'));
    const list = await t.call<{ list: Withdrawal[]; totalCount: number }>('GET', '/ops/api/v1/withdrawals', {
      token: op.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.returnData.totalCount).toBe(1);
    expect(list.body.returnData.list[0]).toMatchObject({
      withdrawalId: pendingId,
      loginId: seller.loginId,
      coinCode: 'ETH',
      amount: '1',
      fee: '0.01',
      status: 'PENDING',
      buyOrderId: null,
      refundMemberId: seller.id,
    });
    for (const [method, url] of [
      ['GET', '/ops/api/v1/withdrawals?status=PENDING'],
      ['POST', `/ops/api/v1/withdrawals/${pendingId}/complete`],
      ['POST', `/ops/api/v1/withdrawals/${pendingId}/reject`],
    ] as const) {
      const m = await t.call(method, url, {
        token: seller.token,
        body: method === 'POST' ? { txid: 'x', reason: 'x' } : undefined,
      });
      expect(m.status, url).toBe(403);
    }
  });

  it('completes: withdrawal_pending -> chain, txid stored, audit written; a second decision is 409', async () => {
    const r = await t.call<Withdrawal>('POST', `/ops/api/v1/withdrawals/${pendingId}/complete`, {
      token: op.token,
      body: { txid: '  0xsent  ' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({ status: 'COMPLETED', txid: '0xsent' });
    expect(await balanceOf(t.app.deps.db, account.withdrawalPending('ETH'))).toBe(0n);
    expect(await avail(seller.id)).toBe(toUnits('3.99'));
    const audits = await auditRows('withdrawal.complete');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      operator_id: op.id,
      target_type: 'withdrawal',
      target_id: String(pendingId),
    });
    for (const [path, body] of [
      ['complete', { txid: '0xagain' }],
      ['reject', { reason: 'late' }],
    ] as const) {
      const again = await t.call('POST', `/ops/api/v1/withdrawals/${pendingId}/${path}`, {
        token: op.token,
        body,
      });
      expect(again.status).toBe(409);
      expect(again.body.returnMessage).toBe('INVALID_STATE');
    }
    const history = await t.call<{ list: { status: string; txid: string | null }[] }>(
      'GET',
      `/transfer?walletId=${sellerEth.id}`,
      { token: seller.token },
    );
    expect(history.body.returnData.list[0]).toMatchObject({ status: 'COMPLETED', txid: '0xsent' });
    const none = await t.call<{ list: unknown[] }>('GET', '/ops/api/v1/withdrawals', { token: op.token });
    expect(none.body.returnData.list).toEqual([]);
    await t.assertLedger();
  });

  it('rejects: the amount and the fee go back to the member, the reason is kept and audited', async () => {
    const r = await t.call<{ transferId: number }>('POST', '/transfer/request', {
      token: seller.token,
      body: {
        fromWalletId: sellerEth.id,
        destType: 'EXTERNAL',
        amount: '0.5',
        destExternalAddress: EXTERNAL_ETH,
        stepUp: { password: seller.password },
      },
    });
    const id = r.body.returnData.transferId;
    expect(await avail(seller.id)).toBe(toUnits('3.48'));
    const noReason = await t.call('POST', `/ops/api/v1/withdrawals/${id}/reject`, {
      token: op.token,
      body: { reason: '  ' },
    });
    expect(noReason.status).toBe(400);
    const rej = await t.call<Withdrawal>('POST', `/ops/api/v1/withdrawals/${id}/reject`, {
      token: op.token,
      body: { reason: 'address on a sanctions list' },
    });
    expect(rej.body.returnData).toMatchObject({ status: 'REJECTED', reason: 'address on a sanctions list' });
    expect(await avail(seller.id)).toBe(toUnits('3.99'));
    expect(await balanceOf(t.app.deps.db, account.fees('ETH'))).toBe(toUnits('0.01'));
    const audits = await auditRows('withdrawal.reject');
    expect(audits.at(-1)).toMatchObject({ target_id: String(id), reason: 'address on a sanctions list' });
    const missing = await t.call('POST', '/ops/api/v1/withdrawals/999999/complete', {
      token: op.token,
      body: { txid: '0x1' },
    });
    expect(missing.status).toBe(404);
    await t.assertLedger();
  });

  it("refunds an order's delivery to the buyer (refund_member_id), as the marketplace inserts it", async () => {
    // What the marketplace does when a buy order with an EXTERNAL destination completes.
    const qty = toUnits('0.7');
    const row = await t.app.deps.db.transaction().execute(async (tx) => {
      await post(tx, movements.escrowHold({ listingId: 4242, sellerId: seller.id, coin: 'ETH', units: qty }));
      const inserted = await tx
        .insertInto('transfers')
        .values({
          wallet_id: sellerEth.id,
          member_id: seller.id,
          coin: 'ETH',
          type: 'WITHDRAW',
          dest_type: 'EXTERNAL',
          status: 'PENDING',
          address: EXTERNAL_ETH,
          amount: '0.7',
          buy_order_id: 4242,
          refund_member_id: buyer.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const delivery = { orderId: 4242, sellerId: seller.id, buyerId: buyer.id, coin: 'ETH' } as const;
      await post(tx, movements.tradeDelivery({ ...delivery, units: qty, fee: 0n, internal: false }));
      return inserted;
    });
    const list = await t.call<{ list: Withdrawal[] }>('GET', '/ops/api/v1/withdrawals?status=PENDING', {
      token: op.token,
    });
    expect(list.body.returnData.list).toEqual([
      expect.objectContaining({ withdrawalId: row.id, buyOrderId: 4242, refundMemberId: buyer.id, fee: '0' }),
    ]);
    const buyerBefore = await avail(buyer.id);
    const sellerBefore = await avail(seller.id);
    const rej = await t.call<Withdrawal>('POST', `/ops/api/v1/withdrawals/${row.id}/reject`, {
      token: op.token,
      body: { reason: 'bad address' },
    });
    expect(rej.status).toBe(200);
    expect(await avail(buyer.id)).toBe(buyerBefore + qty);
    expect(await avail(seller.id)).toBe(sellerBefore);
    expect(await balanceOf(t.app.deps.db, account.withdrawalPending('ETH'))).toBe(0n);
    expect(buyerEth.member_id).toBe(buyer.id);
    await t.assertLedger();
  });
});
