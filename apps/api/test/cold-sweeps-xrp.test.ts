import type { Transfer, Wallet } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'xrpl';
import { chainUnitsToLedger } from '../src/chains/units.ts';
import { account, balanceOf } from '../src/ledger/index.ts';
import { createPayouts, type Payouts, remotePayoutSigner } from '../src/modules/withdrawals/index.ts';
import { chainDifference, coldJournal, restartSigner } from './cold-kit.ts';
import { type FakeRippled, randomXrpAddress, startFakeRippled, type XrpTx } from './fake-rippled.ts';
import { createMember, type FixtureMember, fundMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * Issue 24, DECISIONS §18's hot-wallet cap for XRP against the fake rippled (which verifies each blob's
 * signature and applies it with rippled's result codes) and the real signer process: the cold sweep takes the
 * platform account's Sequence in the database like a withdrawal. A refused sweep (the signer started without
 * COLD_ADDRESS_XRP) gives its Sequence back and the next withdrawal uses it; then the worker sends exactly the
 * excess above HOT_WALLET_MAX_XRP (1000) to the cold address by itself and posts the fee as `network-fee:XRP`;
 * a sweep stored but never delivered to the node is submitted again after a restart, the same blob, signed once.
 */

const DROPS = 1_000_000n;
const CAP = 1_000n * DROPS;
const cold = randomXrpAddress();

let fake: FakeRippled;
let signer: TestSigner;
let t: TestApp;
let payouts: Payouts;
let member: FixtureMember;
let wallet: Wallet;
let platform: string;

async function pass(): Promise<void> {
  const w = payouts.workers.get('XRP');
  if (!w) throw new Error('no XRP payout worker');
  expect((await w.pass()).error).toBeUndefined();
}

async function coldSweeps() {
  const r = await sql<{
    id: number;
    request_id: string;
    status: string;
    units: string;
    txid: string | null;
    reason: string | null;
    signed_tx: string | null;
  }>`select id, request_id, status, units::text as units, txid, reason, signed_tx from cold_sweeps
    where coin = 'XRP' order by id`.execute(t.app.deps.db);
  return r.rows;
}

async function withdraw(to: string, amount: string): Promise<number> {
  const r = await t.call<Transfer>('POST', '/transfer/request', {
    token: member.token,
    body: {
      fromWalletId: wallet.id,
      destType: 'EXTERNAL',
      destExternalAddress: to,
      amount,
      stepUp: { password: member.password },
    },
  });
  expect(r.status).toBe(200);
  return r.body.returnData.transferId;
}

async function withdrawal(id: number) {
  return t.app.deps.db
    .selectFrom('transfers')
    .select(['status', 'txid'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Every transaction of the fake's closed ledgers with hash `txid`. */
function onLedger(txid: string): XrpTx[] {
  return fake.ledgers.flatMap((l) => l.transactions.filter((x) => x.hash === txid));
}

function paymentsTo(to: string): XrpTx[] {
  return fake.ledgers.flatMap((l) => l.transactions.filter((x) => x.Destination === to));
}

const sequenceOf = (blob: string) => Number((decode(blob) as { Sequence: number }).Sequence);

beforeAll(async () => {
  fake = await startFakeRippled();
  signer = await startSigner(); // no COLD_ADDRESS_XRP yet: every COLD_SWEEP is refused
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_XRP: fake.url,
      CHAIN_CONFIRMATIONS_XRP: '1',
      WITHDRAW_AUTO_MAX_XRP: '1000',
      WITHDRAW_MISSING_GRACE_SEC: '3600',
      HOT_WALLET_MAX_XRP: '1000',
      COLD_ADDRESS_XRP: cold,
    },
    { payoutSigner: remotePayoutSigner(signer.client), startPayouts: false, startWatchers: false },
  );
  payouts = t.app.payouts;
  platform = payouts.payouts.get('XRP')?.hotAddress ?? '';
  fake.fund(platform, 10_000n * DROPS);
  fake.addLedger();
  member = await createMember(t);
  const created = await t.call<Wallet>('POST', '/api/v1/wallets/create', {
    token: member.token,
    body: { coinCode: 'XRP' },
  });
  wallet = created.body.returnData;
  await fundMember(t, member.id, 'XRP', '5000');
}, 180_000);

afterAll(async () => {
  await payouts?.stop();
  await t?.close();
  await signer?.stop();
  await fake?.close();
});

describe('the hot-wallet cap of XRP swept to cold by the payout worker', () => {
  it('a sweep the signer refuses gives its Sequence back: the next withdrawal goes out with it', async () => {
    const to = randomXrpAddress();
    const id = await withdraw(to, '25');
    const sequence = fake.accounts.get(platform)?.sequence;
    await pass();
    const sent = await withdrawal(id);
    expect(sent.status).toBe('BROADCAST');
    const blob = fake.open.find((x) => x.hash === sent.txid);
    expect(blob?.Sequence).toBe(sequence);
    fake.addLedger();
    await pass();
    expect((await withdrawal(id)).status).toBe('COMPLETED');
    expect(fake.accounts.get(to)?.balance).toBe(25n * DROPS);
    const sweeps = await coldSweeps();
    expect(sweeps.length).toBeGreaterThan(0);
    for (const s of sweeps)
      expect([s.status, s.txid, s.reason]).toEqual([
        'FAILED',
        null,
        expect.stringMatching(/not signed: SIGNER_REFUSED/),
      ]);
    expect(paymentsTo(cold)).toEqual([]);
    await t.assertLedger();
  });

  it('sends exactly the excess above HOT_WALLET_MAX_XRP to the cold address and posts its fee', async () => {
    signer = await restartSigner(signer, { COLD_ADDRESS_XRP: cold });
    const hotBefore = fake.accounts.get(platform)?.balance ?? 0n;
    const feesBefore = await balanceOf(t.app.deps.db, account.networkFee('XRP'));
    const diffBefore = await chainDifference(t, 'XRP');
    await pass();
    const open = (await coldSweeps()).filter((s) => s.status !== 'FAILED');
    expect(open.map((s) => [s.status, s.units])).toEqual([['BROADCAST', String(hotBefore - CAP)]]);
    fake.addLedger();
    await pass();
    const sweep = (await coldSweeps()).find((s) => s.request_id === open[0]?.request_id);
    expect(sweep?.status).toBe('CONFIRMED');
    const [paid, ...more] = paymentsTo(cold);
    expect(more).toEqual([]);
    expect(paid).toMatchObject({ Account: platform, Amount: String(hotBefore - CAP), hash: sweep?.txid });
    expect(paid?.metaData).toMatchObject({ TransactionResult: 'tesSUCCESS' });
    const fee = BigInt(String(paid?.Fee));
    expect(fake.accounts.get(cold)?.balance).toBe(hotBefore - CAP);
    expect(fake.accounts.get(platform)?.balance).toBe(CAP - fee);
    expect(await balanceOf(t.app.deps.db, account.networkFee('XRP'))).toBe(
      feesBefore - chainUnitsToLedger('XRP', fee),
    );
    expect(coldJournal(signer, sweep?.request_id ?? '')).toEqual([sweep?.txid]);
    // the cold address is the platform's: the fee left the ledger and the chain alike
    expect(await chainDifference(t, 'XRP')).toBe(diffBefore);
    await pass(); // under the cap now: nothing more
    expect((await coldSweeps()).filter((s) => s.status !== 'FAILED')).toHaveLength(1);
    await t.assertLedger();
  });

  it('a sweep stored but never delivered is submitted again after a restart: the same blob, signed once', async () => {
    fake.fund(platform, 500n * DROPS); // a gift from outside puts the account above the cap again
    fake.addLedger();
    const sequence = fake.accounts.get(platform)?.sequence;
    fake.submitFault = 'before';
    await pass(); // signed and stored; the submit never reaches the node
    fake.submitFault = null;
    const [stored, ...none] = (await coldSweeps()).filter((s) => s.status === 'BROADCAST');
    expect(none).toEqual([]);
    expect(stored?.txid).toBeTruthy();
    expect(fake.open).toEqual([]);

    await payouts.stop(); // another process takes over on the same database
    payouts = createPayouts(t.app.deps, {
      signer: remotePayoutSigner(signer.client),
      log: t.app.log,
      autoStart: false,
    });
    const to = randomXrpAddress();
    const id = await withdraw(to, '10');
    await pass(); // the stored blob submitted again, then the withdrawal with the next Sequence
    expect(fake.open.map((x) => x.hash)).toEqual([stored?.txid, (await withdrawal(id)).txid]);
    fake.addLedger();
    await pass();
    expect((await coldSweeps()).find((s) => s.id === stored?.id)?.status).toBe('CONFIRMED');
    expect((await withdrawal(id)).status).toBe('COMPLETED');
    const [swept] = onLedger(stored?.txid ?? '');
    expect(swept?.Sequence).toBe(sequence);
    expect(paymentsTo(to).map((x) => x.Sequence)).toEqual([(sequence ?? 0) + 1]);
    expect(coldJournal(signer, stored?.request_id ?? '')).toEqual([stored?.txid]);
    expect(paymentsTo(cold)).toHaveLength(2);
    const submits = fake.requests.filter((r) => r.method === 'submit');
    const blobs = submits.map((r) => String(r.params.tx_blob ?? ''));
    const sweepBlobs = blobs.filter((b) => b && sequenceOf(b) === sequence);
    // every blob the node was given at that Sequence is the one stored (the faulted submit is not recorded)
    expect(sweepBlobs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(sweepBlobs)).toEqual(new Set([String(stored?.signed_tx)]));
    await t.assertLedger();
  });
});
