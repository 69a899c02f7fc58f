import type { UnmatchedPayment } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeRippled,
  randomXrpAddress,
  startFakeRippled,
  xrpAccountSet,
  xrpPayment,
} from '../../../test/fake-rippled.ts';
import { type FakeTron, startFakeTron, tronTransfer } from '../../../test/fake-tron.ts';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { available, type Depositor, depositor, scanToTip, transfersOf, watcherOf } from './test-kit.ts';

/**
 * XRP and TRX deposits through the real readers (chains/xrp-reader.ts, trx-reader.ts) against the fake nodes
 * that answer the documented shapes (DECISIONS §17): XRP by destination tag on the platform account, credited
 * with delivered_amount at one validated ledger; payments without a known tag held in the operators' unmatched
 * queue, assigned once (parallel requests: exactly one wins) or recorded as returned, audit-logged.
 */

let t: TestApp;
let rippled: FakeRippled;
let tron: FakeTron;
let op: FixtureMember;
const PLATFORM = randomXrpAddress();

beforeAll(async () => {
  rippled = await startFakeRippled();
  tron = await startFakeTron();
  // the scans start at the second block: the first one's parent is not on these nodes
  const xrpStart = rippled.addLedger().ledger_index;
  const trxStart = tron.addBlock().block_header.raw_data.number;
  t = await createTestApp(
    {
      CHAIN_RPC_XRP: rippled.url,
      CHAIN_RPC_TRX: tron.url,
      XRP_DEPOSIT_ACCOUNT: PLATFORM,
      CHAIN_CONFIRMATIONS_TRX: '3',
      CHAIN_START_HEIGHT_XRP: String(xrpStart),
      CHAIN_START_HEIGHT_TRX: String(trxStart),
      DEPOSIT_MIN_XRP: '1',
      CHAIN_TIMEOUT_MS: '2000',
    },
    { startWatchers: false },
  );
  op = await createMember(t, { role: 'OPERATOR' });
});
afterAll(async () => {
  await t.close();
  await rippled.close();
  await tron.close();
});

const xrp = () => watcherOf(t, 'XRP');
const tagOf = (d: Depositor) => {
  const tag = d.wallet.destination_tag;
  if (tag === null) throw new Error('XRP wallet without a tag');
  return Number(tag);
};
const unmatched = async (status = 'UNMATCHED') => {
  const r = await t.call<{ list: UnmatchedPayment[] }>(
    'GET',
    `/ops/api/v1/chain/unmatched?status=${status}`,
    {
      token: op.token,
    },
  );
  expect(r.status).toBe(200);
  return r.body.returnData.list;
};

describe('XRP deposits by destination tag', () => {
  it("credits a payment to the platform account with a member's tag at one validated ledger, delivered_amount only", async () => {
    const ann = await depositor(t, 'XRP');
    const ledger = rippled.addLedger([
      xrpPayment({ to: PLATFORM, amount: '25000000', destinationTag: tagOf(ann) }),
      // a partial payment: 10 XRP asked, 2.5 arrived -> 2.5 credited
      xrpPayment({
        to: PLATFORM,
        amount: '10000000',
        delivered: '2500000',
        partial: true,
        destinationTag: tagOf(ann),
      }),
      // failed on chain: never credited
      xrpPayment({ to: PLATFORM, amount: '7000000', destinationTag: tagOf(ann), result: 'tecPATH_DRY' }),
      // under DEPOSIT_MIN_XRP: recorded, not credited
      xrpPayment({ to: PLATFORM, amount: '999999', destinationTag: tagOf(ann) }),
      xrpAccountSet(),
    ]);
    await scanToTip(xrp());
    const list = await transfersOf(t, ann);
    expect(list.map((x) => [x.status, x.amount]).sort()).toEqual([
      ['BELOW_MINIMUM', '0.999999'],
      ['COMPLETED', '2.5'],
      ['COMPLETED', '25'],
    ]);
    const full = list.find((x) => x.amount === '25');
    expect(full).toMatchObject({
      txid: ledger.transactions[0]?.hash,
      confirmations: 1,
      requiredConfirmations: 1,
      address: PLATFORM,
    });
    expect(await available(t, ann, 'XRP')).toBe(2_750_000_000n);
    await t.assertLedger();
  });

  it('holds a payment without a tag or with an unknown tag as UNMATCHED, credited to nobody', async () => {
    const before = (await unmatched()).length;
    const ledger = rippled.addLedger([
      xrpPayment({ to: PLATFORM, amount: '5000000' }),
      xrpPayment({ to: PLATFORM, amount: '6000000', destinationTag: 4_000_000_123 }),
    ]);
    await scanToTip(xrp());
    const list = await unmatched();
    expect(list).toHaveLength(before + 2);
    expect(list.slice(-2)).toEqual([
      expect.objectContaining({
        txid: ledger.transactions[0]?.hash,
        destinationTag: null,
        amount: '5',
        status: 'UNMATCHED',
        coinCode: 'XRP',
        address: PLATFORM,
        confirmations: 1,
        requiredConfirmations: 1,
      }),
      expect.objectContaining({ destinationTag: 4_000_000_123, amount: '6', status: 'UNMATCHED' }),
    ]);
    await t.assertLedger();
  });

  it('assigns an unmatched payment to a member once, under parallel requests exactly one wins, audit-logged', async () => {
    const ben = await depositor(t, 'XRP');
    rippled.addLedger([xrpPayment({ to: PLATFORM, amount: '12000000', destinationTag: 77 })]);
    await scanToTip(xrp());
    const item = (await unmatched()).find((u) => u.destinationTag === 77);
    if (!item) throw new Error('not queued');
    const body = { memberId: ben.member.id, reason: 'sender forgot the tag; confirmed by e-mail' };
    const tries = onPostgres ? 8 : 4;
    const answers = await Promise.all(
      Array.from({ length: tries }, () =>
        t.call<UnmatchedPayment>('POST', `/ops/api/v1/chain/unmatched/${item.id}/assign`, {
          token: op.token,
          body,
        }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.returnMessage)).toEqual(
      Array(tries - 1).fill('INVALID_STATE'),
    );
    expect(won[0]?.body.returnData).toMatchObject({
      status: 'ASSIGNED',
      memberId: ben.member.id,
      reason: body.reason,
      decidedBy: op.id,
    });
    expect(await available(t, ben, 'XRP')).toBe(1_200_000_000n);
    const [dep] = await transfersOf(t, ben);
    expect(dep).toMatchObject({ status: 'COMPLETED', amount: '12', txid: item.txid });
    expect(won[0]?.body.returnData.transferId).toBe(dep?.transferId);
    const audits = await t.app.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'chain.unmatched.assign')
      .where('target_id', '=', String(item.id))
      .execute();
    expect(audits).toHaveLength(1);
    // the operator's deposit credit of the same output cannot credit it again
    const again = await t.call('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { coinCode: 'XRP', address: PLATFORM, destinationTag: tagOf(ben), amount: '12', txid: item.txid },
    });
    expect(again.status).toBe(200);
    expect(again.body.returnData).toMatchObject({ created: false });
    expect(await available(t, ben, 'XRP')).toBe(1_200_000_000n);
    expect(await unmatched('ASSIGNED')).toEqual([expect.objectContaining({ id: item.id })]);
    await t.assertLedger();
  });

  it('records a return (audit-logged, nothing credited) and refuses to decide a payment twice', async () => {
    const cy = await depositor(t, 'XRP');
    rippled.addLedger([xrpPayment({ to: PLATFORM, amount: '3000000', destinationTag: 88 })]);
    await scanToTip(xrp());
    const item = (await unmatched()).find((u) => u.destinationTag === 88);
    if (!item) throw new Error('not queued');
    const back = await t.call<UnmatchedPayment>('POST', `/ops/api/v1/chain/unmatched/${item.id}/return`, {
      token: op.token,
      body: { txid: 'A'.repeat(64), reason: 'sent back to the sender' },
    });
    expect(back.status).toBe(200);
    expect(back.body.returnData).toMatchObject({ status: 'RETURNED', returnTxid: 'A'.repeat(64) });
    const assign = await t.call('POST', `/ops/api/v1/chain/unmatched/${item.id}/assign`, {
      token: op.token,
      body: { memberId: cy.member.id, reason: 'late claim' },
    });
    expect(assign.status).toBe(409);
    expect(assign.body).toMatchObject({ returnMessage: 'INVALID_STATE', returnData: { status: 'RETURNED' } });
    expect(await available(t, cy, 'XRP')).toBe(0n);
    const missing = await t.call('POST', '/ops/api/v1/chain/unmatched/999999/return', {
      token: op.token,
      body: { txid: 'B'.repeat(64), reason: 'x' },
    });
    expect(missing.status).toBe(404);
    const member = await createMember(t);
    expect((await t.call('GET', '/ops/api/v1/chain/unmatched', { token: member.token })).status).toBe(403);
    await t.assertLedger();
  });

  it('refuses to assign to a member without an XRP wallet (404 WALLET_NOT_FOUND), leaving the payment queued', async () => {
    const dee = await createMember(t);
    rippled.addLedger([xrpPayment({ to: PLATFORM, amount: '4000000' })]);
    await scanToTip(xrp());
    const item = (await unmatched()).at(-1);
    const r = await t.call('POST', `/ops/api/v1/chain/unmatched/${item?.id}/assign`, {
      token: op.token,
      body: { memberId: dee.id, reason: 'r' },
    });
    expect(r.status).toBe(404);
    expect(r.body.returnMessage).toBe('WALLET_NOT_FOUND');
    expect((await unmatched()).at(-1)).toMatchObject({ id: item?.id, status: 'UNMATCHED' });
  });
});

describe('TRX deposits', () => {
  it('credits a TransferContract to a member address at CHAIN_CONFIRMATIONS_TRX, a failed one never', async () => {
    const eve = await depositor(t, 'TRX');
    const block = tron.addBlock([
      tronTransfer({ to: eve.wallet.address, sun: 15_000_000 }),
      tronTransfer({ to: eve.wallet.address, sun: 9_000_000, result: 'REVERT' }),
    ]);
    await scanToTip(watcherOf(t, 'TRX'));
    expect(await transfersOf(t, eve)).toEqual([
      expect.objectContaining({
        status: 'PENDING',
        amount: '15',
        confirmations: 1,
        requiredConfirmations: 3,
      }),
    ]);
    tron.addBlock();
    tron.addBlock();
    await scanToTip(watcherOf(t, 'TRX'));
    expect(await transfersOf(t, eve)).toEqual([
      expect.objectContaining({ status: 'COMPLETED', confirmations: 3, txid: block.transactions?.[0]?.txID }),
    ]);
    expect(await available(t, eve, 'TRX')).toBe(1_500_000_000n);
    await t.assertLedger();
  });
});
