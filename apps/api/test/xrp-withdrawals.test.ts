import { type Transfer, toUnits, type Wallet } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'xrpl';
import { account, balanceOf } from '../src/ledger/index.ts';
import {
  createPayouts,
  type Payouts,
  remotePayoutSigner,
  type XrpPayer,
} from '../src/modules/withdrawals/index.ts';
import { type FakeRippled, randomXrpAddress, startFakeRippled, type XrpTx } from './fake-rippled.ts';
import { createMember, type FixtureMember, fundMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * DECISIONS §17, §18 for XRP: withdrawals paid from the platform account (0/0) by the real signer process against
 * the fake rippled, which decodes each submitted blob with xrpl, verifies its signature and applies it with
 * rippled's result codes. The payout worker's passes are driven by the test; a "restart" is a new payout
 * worker on the same database (the SIGKILL crash tests are test/withdrawal-crash.test.ts).
 */

let fake: FakeRippled;
let signer: TestSigner;
let t: TestApp;
let payouts: Payouts;
let member: FixtureMember;
let op: FixtureMember;
let wallet: Wallet;
let platform: string;

const DROPS = 1_000_000n;

async function pass(): Promise<void> {
  const w = payouts.workers.get('XRP');
  if (!w) throw new Error('no XRP payout worker');
  const r = await w.pass();
  expect(r.error).toBeUndefined();
}

async function withdraw(body: Record<string, unknown>) {
  return t.call<Transfer>('POST', '/transfer/request', {
    token: member.token,
    body: { fromWalletId: wallet.id, destType: 'EXTERNAL', stepUp: { password: member.password }, ...body },
  });
}

async function row(id: number) {
  return t.app.deps.db
    .selectFrom('transfers')
    .select(['status', 'txid', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function attempts(id: number) {
  return t.app.deps.db
    .selectFrom('withdrawal_attempts')
    .selectAll()
    .where('transfer_id', '=', id)
    .orderBy('seq')
    .execute();
}

/** Every payment the fake's closed ledgers hold to `to`. */
function paymentsTo(to: string): XrpTx[] {
  return fake.ledgers.flatMap((l) =>
    l.transactions.filter((x) => x.TransactionType === 'Payment' && x.Destination === to),
  );
}

async function memberBalance(): Promise<bigint> {
  return balanceOf(t.app.deps.db, account.available(member.id, 'XRP'));
}

beforeAll(async () => {
  fake = await startFakeRippled();
  signer = await startSigner();
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_XRP: fake.url,
      CHAIN_CONFIRMATIONS_XRP: '1',
      WITHDRAW_AUTO_MAX_XRP: '1000',
      WITHDRAW_MISSING_GRACE_SEC: '3600',
    },
    { payoutSigner: remotePayoutSigner(signer.client), startPayouts: false, startWatchers: false },
  );
  payouts = t.app.payouts;
  platform = payouts.payouts.get('XRP')?.hotAddress ?? '';
  expect(platform).toBe(signer.accounts.accounts.find((a) => a.coin === 'XRP')?.xrpAccount);
  fake.fund(platform, 10_000n * DROPS);
  fake.addLedger();
  member = await createMember(t);
  op = await createMember(t, { role: 'OPERATOR' });
  const created = await t.call<Wallet>('POST', '/api/v1/wallets/create', {
    token: member.token,
    body: { coinCode: 'XRP' },
  });
  wallet = created.body.returnData;
  expect(wallet.address).toBe(platform);
  await fundMember(t, member.id, 'XRP', '5000');
}, 180_000);

afterAll(async () => {
  await t?.close();
  await signer?.stop();
  await fake?.close();
});

describe('XRP withdrawals from the platform account', () => {
  it('pays a withdrawal with its destTag: the ledger shows the payment with that tag and the exact drops', async () => {
    const to = randomXrpAddress();
    const before = await memberBalance();
    const r = await withdraw({ destExternalAddress: to, destTag: 4_294_967_295, amount: '25.123456' });
    expect(r.status).toBe(200);
    const id = r.body.returnData.transferId;
    await pass();
    const sent = await row(id);
    expect(sent.status).toBe('BROADCAST');
    expect(sent.txid).toMatch(/^[0-9A-F]{64}$/);
    expect(fake.open.map((x) => x.hash)).toEqual([sent.txid]);
    fake.addLedger();
    await pass();
    expect((await row(id)).status).toBe('COMPLETED');
    const paid = paymentsTo(to);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      Account: platform,
      Destination: to,
      DestinationTag: 4_294_967_295,
      Amount: '25123456',
      hash: sent.txid,
      metaData: { TransactionResult: 'tesSUCCESS', delivered_amount: '25123456' },
    });
    expect(fake.accounts.get(to)?.balance).toBe(25_123_456n);
    const fee = toLedgerUnits(String(paid[0]?.Fee));
    expect(await memberBalance()).toBe(
      before - 2_512_345_600n - toUnits(t.app.deps.config.chain.withdrawFees.XRP),
    );
    expect(await balanceOf(t.app.deps.db, account.networkFee('XRP'))).toBe(-fee);
    await t.assertLedger();
  });

  it('a validated tec result fails the withdrawal with the reason, nothing delivered', async () => {
    const feesBefore = await balanceOf(t.app.deps.db, account.networkFee('XRP'));
    const exchange = randomXrpAddress();
    fake.fund(exchange, 50n * DROPS);
    fake.requireDestTag.add(exchange);
    const r = await withdraw({ destExternalAddress: exchange, amount: '3' });
    const id = r.body.returnData.transferId;
    await pass();
    fake.addLedger();
    await pass();
    const failed = await row(id);
    expect(failed.status).toBe('FAILED');
    expect(failed.last_error).toContain('tecDST_TAG_NEEDED');
    expect(fake.accounts.get(exchange)?.balance).toBe(50n * DROPS);
    const small = await withdraw({ destExternalAddress: randomXrpAddress(), amount: '0.5' });
    await pass();
    fake.addLedger();
    await pass();
    expect((await row(small.body.returnData.transferId)).last_error).toContain('tecNO_DST_INSUF_XRP');
    // A validated tec burnt its fee: the platform's network fee shows it (per attempt).
    const burnt = [...(await attempts(id)), ...(await attempts(small.body.returnData.transferId))];
    expect(burnt.map((a) => a.network_fee)).toEqual(['0.00001000', '0.00001000']);
    expect(await balanceOf(t.app.deps.db, account.networkFee('XRP'))).toBe(feesBefore - 2_000n);
    await t.assertLedger();
  });

  it('a tef refusal fails the attempt; the retry keeps its unused Sequence and pays once', async () => {
    const to = randomXrpAddress();
    const r = await withdraw({ destExternalAddress: to, destTag: 7, amount: '12' });
    const id = r.body.returnData.transferId;
    fake.submitFault = 'before';
    await pass();
    fake.submitFault = null;
    expect((await row(id)).status).toBe('BROADCAST');
    const [first] = await attempts(id);
    const lastLedger = Number(first?.intent.lastLedgerSequence);
    // The open ledger moves past its LastLedgerSequence while the validated one lags: submit answers tefMAX_LEDGER.
    fake.validatedIndex = fake.ledgers.at(-1)?.ledger_index ?? 0;
    while ((fake.ledgers.at(-1)?.ledger_index ?? 0) < lastLedger) fake.addLedger();
    await pass();
    const failed = await row(id);
    expect(failed.status).toBe('FAILED');
    expect(failed.last_error).toContain('tefMAX_LEDGER');
    fake.validatedIndex = null;
    const retried = await t.call('POST', `/ops/api/v1/withdrawals/${id}/retry`, { token: op.token });
    expect(retried.status).toBe(200);
    await pass();
    fake.addLedger();
    await pass();
    expect((await row(id)).status).toBe('COMPLETED');
    const [, second] = await attempts(id);
    expect(second?.intent.sequence).toBe(first?.intent.sequence);
    expect(second?.txid).not.toBe(first?.txid);
    expect(paymentsTo(to)).toHaveLength(1);
    expect(fake.accounts.get(to)?.balance).toBe(12n * DROPS);
  });

  it('an expired LastLedgerSequence without validation fails the attempt', async () => {
    const r = await withdraw({ destExternalAddress: randomXrpAddress(), amount: '2' });
    const id = r.body.returnData.transferId;
    fake.submitFault = 'before';
    await pass();
    fake.submitFault = null;
    const [a] = await attempts(id);
    while ((fake.ledgers.at(-1)?.ledger_index ?? 0) <= Number(a?.intent.lastLedgerSequence)) fake.addLedger();
    await pass();
    const failed = await row(id);
    expect(failed.status).toBe('FAILED');
    expect(failed.last_error).toContain('LastLedgerSequence');
    // Retried: the Sequence was never used, so the replacement takes it again.
    await t.call('POST', `/ops/api/v1/withdrawals/${id}/retry`, { token: op.token });
    await pass();
    fake.addLedger();
    await pass();
    expect((await row(id)).status).toBe('COMPLETED');
  });

  it('after a restart the same blob is submitted again; an applied one is found, never paid twice', async () => {
    const lost = randomXrpAddress();
    const applied = randomXrpAddress();
    // B reaches the node and is applied, but the answer is lost; then A never reaches it.
    fake.submitFault = 'after';
    const b = (await withdraw({ destExternalAddress: applied, amount: '6' })).body.returnData.transferId;
    await pass();
    fake.submitFault = 'before';
    const a = (await withdraw({ destExternalAddress: lost, amount: '4' })).body.returnData.transferId;
    await pass();
    fake.submitFault = null;
    expect((await row(a)).status).toBe('BROADCAST');
    expect((await row(b)).status).toBe('BROADCAST');
    // The process goes away; another takes the lease over on the same database.
    await payouts.stop();
    payouts = createPayouts(t.app.deps, {
      signer: remotePayoutSigner(signer.client),
      log: t.app.log,
      autoStart: false,
    });
    const submitsBefore = fake.requests.filter((x) => x.method === 'submit').length;
    await pass();
    const resent = fake.requests.filter((x) => x.method === 'submit').slice(submitsBefore);
    const [attemptA] = await attempts(a);
    const [attemptB] = await attempts(b);
    // A (never reached the node): the stored bytes again. B (applied, answer lost): found, not sent again.
    expect(resent.map((x) => x.params.tx_blob)).toEqual([attemptA?.signed_tx]);
    const payer = payouts.payouts.get('XRP')?.payer as XrpPayer;
    expect(await payer.broadcast(String(attemptB?.signed_tx), String(attemptB?.txid))).toEqual({
      kind: 'KNOWN',
    });
    fake.addLedger();
    await pass();
    expect((await row(a)).status).toBe('COMPLETED');
    expect((await row(b)).status).toBe('COMPLETED');
    expect(paymentsTo(lost)).toHaveLength(1);
    expect(paymentsTo(applied)).toHaveLength(1);
    expect(decode(String(attemptB?.signed_tx)).Amount).toBe('6000000');
    await t.assertLedger();
  });

  it('refuses bad input with a stable code and leaves the balance as it was', async () => {
    const before = await memberBalance();
    const to = randomXrpAddress();
    const cases: [Record<string, unknown>, number, string, Record<string, unknown> | null][] = [
      [
        { destExternalAddress: to, destTag: -1, amount: '1' },
        400,
        'VALIDATION_FAILED',
        { destTag: 'INVALID_FORMAT' },
      ],
      [
        { destExternalAddress: to, destTag: 4_294_967_296, amount: '1' },
        400,
        'VALIDATION_FAILED',
        { destTag: 'INVALID_FORMAT' },
      ],
      [
        { destExternalAddress: to, destTag: 1.5, amount: '1' },
        400,
        'VALIDATION_FAILED',
        { destTag: 'INVALID_FORMAT' },
      ],
      [
        { destExternalAddress: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '1' },
        400,
        'INVALID_ADDRESS',
        null,
      ],
      [
        { destExternalAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '1' },
        400,
        'INVALID_ADDRESS',
        null,
      ],
      [
        { destExternalAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '1' },
        400,
        'INVALID_ADDRESS',
        null,
      ],
      [
        { destExternalAddress: to, amount: '1.1234567' },
        400,
        'VALIDATION_FAILED',
        { amount: expect.any(String) },
      ],
    ];
    for (const [body, status, code, fields] of cases) {
      const r = await withdraw(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.returnMessage, JSON.stringify(body)).toBe(code);
      if (fields) expect(r.body.returnData).toMatchObject({ fields });
    }
    expect(await memberBalance()).toBe(before);
    const rows = await t.app.deps.db
      .selectFrom('transfers')
      .select('id')
      .where('member_id', '=', member.id)
      .where('status', '=', 'PENDING')
      .execute();
    expect(rows).toHaveLength(0);
  });

  // Last: the Sequences taken here are never sent, so later payments would wait behind them.
  it('parallel prepares take distinct, consecutive Sequences (the account row lock has one winner at a time)', async () => {
    const payer = payouts.payouts.get('XRP')?.payer as XrpPayer;
    const req = (n: number) => ({
      requestId: `race:${n}`,
      withdrawalId: n,
      address: randomXrpAddress(),
      destTag: n,
      units: 100_000_000n,
      replaces: null,
    });
    const prepared = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => t.app.deps.db.transaction().execute((tx) => payer.prepare(tx, req(n)))),
    );
    const sequences = prepared.map((p) => Number(p.intent.sequence)).sort((x, y) => x - y);
    const first = sequences[0] ?? 0;
    expect(sequences).toEqual([0, 1, 2, 3, 4, 5].map((i) => first + i));
    expect(first).toBeGreaterThanOrEqual(fake.accounts.get(platform)?.sequence ?? Number.POSITIVE_INFINITY);
  });
});

function toLedgerUnits(drops: string): bigint {
  return BigInt(drops) * 100n;
}
