import type { Wallet } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balanceOf } from '../src/ledger/index.ts';
import { remotePayoutSigner } from '../src/modules/withdrawals/index.ts';
import { type FakeTron, startFakeTron, tronHex, tronTransfer } from './fake-tron.ts';
import { createMember, type FixtureMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * DECISIONS §18 for TRX: credited deposits are swept from their address (0/i) to the hot address (1/0), signed
 * by the real signer process with the purpose SWEEP and sent to the fake java-tron, which applies a mined
 * transfer to its balances and burns `transferFeeSun`. The payout worker's passes are driven by the test.
 */

let tron: FakeTron;
let signer: TestSigner;
let t: TestApp;
let member: FixtureMember;
let hot: string;

const TRX = 1_000_000n;
const FEE = 268_000n;

async function pass(): Promise<void> {
  const w = t.app.payouts.workers.get('TRX');
  if (!w) throw new Error('no TRX payout worker');
  const r = await w.pass();
  expect(r.error).toBeUndefined();
}

/** A deposit of `sun` to `address`, mined and buried under 2 blocks, then credited by the watcher. */
async function deposit(address: string, sun: bigint): Promise<void> {
  tron.addBlock([tronTransfer({ to: address, sun })]);
  tron.balances.set(address, (tron.balances.get(address) ?? 0n) + sun);
  tron.addBlock();
  tron.addBlock();
  const scan = await t.app.depositWatchers.watchers.get('TRX')?.scan();
  expect(scan?.error).toBeUndefined();
}

async function wallet(): Promise<Wallet> {
  const m = await createMember(t);
  const r = await t.call<Wallet>('POST', '/api/v1/wallets/create', {
    token: m.token,
    body: { coinCode: 'TRX' },
  });
  return r.body.returnData;
}

async function sweepsOf(address: string) {
  return t.app.deps.db
    .selectFrom('chain_sweeps')
    .selectAll()
    .where('coin', '=', 'TRX')
    .where('from_address', '=', address)
    .orderBy('id')
    .execute();
}

/** The mined transfers out of `address`. */
function transfersFrom(address: string): unknown[] {
  const owner = tronHex(address);
  return tron.blocks.flatMap((b) =>
    (b.transactions ?? []).filter((x) => {
      const raw = x.raw_data as { contract: { parameter: { value: { owner_address: string } } }[] };
      return raw.contract[0]?.parameter.value.owner_address === owner;
    }),
  );
}

beforeAll(async () => {
  tron = await startFakeTron();
  signer = await startSigner();
  const start = tron.addBlock().block_header.raw_data.number;
  tron.transferFeeSun = FEE;
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_TRX: tron.url,
      CHAIN_CONFIRMATIONS_TRX: '2',
      CHAIN_START_HEIGHT_TRX: String(start),
      DEPOSIT_MIN_TRX: '0.5',
      WITHDRAW_MISSING_GRACE_SEC: '3600',
    },
    { payoutSigner: remotePayoutSigner(signer.client), startPayouts: false, startWatchers: false },
  );
  member = await createMember(t);
  hot = t.app.payouts.payouts.get('TRX')?.hotAddress ?? '';
  expect(hot).toBe(signer.accounts.accounts.find((a) => a.coin === 'TRX')?.hotAddress);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await signer?.stop();
  await tron?.close();
});

describe('TRX deposit sweeps to the hot address', () => {
  it('sweeps a credited deposit less the most the transfer may burn, and posts the fee it burnt', async () => {
    expect(member.id).toBeGreaterThan(0);
    const w = await wallet();
    await deposit(w.address, 50n * TRX);
    await pass();
    const [s] = await sweepsOf(w.address);
    expect(s?.status).toBe('BROADCAST');
    // The hot address is new on the chain: the burn covers its creation besides the bandwidth.
    expect(s?.chain_amount).toBe(String(50n * TRX - 300_000n - 1_100_000n));
    expect(tron.pending).toHaveLength(1);
    tron.mine();
    tron.addBlock();
    await pass();
    const [done] = await sweepsOf(w.address);
    expect(done?.status).toBe('CONFIRMED');
    expect(tron.balances.get(hot)).toBe(50n * TRX - 1_400_000n);
    expect(tron.balances.get(w.address)).toBe(1_400_000n - FEE);
    expect(await balanceOf(t.app.deps.db, account.networkFee('TRX'))).toBe(-FEE * 100n);
    await t.assertLedger();
    // Nothing new credited: the wallet is not swept again.
    await pass();
    expect(await sweepsOf(w.address)).toHaveLength(1);
  });

  it('leaves a deposit below the threshold where it is', async () => {
    const w = await wallet();
    await deposit(w.address, 1_200_000n);
    await pass();
    expect(await sweepsOf(w.address)).toHaveLength(0);
    expect(tron.pending).toHaveLength(0);
  });

  it('a sweep that expired in no block fails and the wallet is swept again, once', async () => {
    const w = await wallet();
    await deposit(w.address, 20n * TRX);
    await pass();
    expect(tron.pending).toHaveLength(1);
    tron.pending.splice(0); // the node lost it
    const [lost] = await sweepsOf(w.address);
    const expiration = Number(lost?.reservation?.expiration);
    while (Number(tron.blocks.at(-1)?.block_header.raw_data.timestamp) <= expiration) tron.addBlock();
    await pass();
    const [failed, again] = await sweepsOf(w.address);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.error).toContain('expired');
    expect(again?.status).toBe('BROADCAST');
    expect(again?.chain_amount).toBe(String(20n * TRX - 300_000n));
    tron.mine();
    tron.addBlock();
    await pass();
    expect((await sweepsOf(w.address)).map((x) => x.status)).toEqual(['FAILED', 'CONFIRMED']);
    expect(transfersFrom(w.address)).toHaveLength(1);
    await t.assertLedger();
  });
});
