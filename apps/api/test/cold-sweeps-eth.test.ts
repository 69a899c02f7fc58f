import type { Transfer } from '@p2p/contract';
import { sql } from 'kysely';
import { type Address, type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainUnitsToLedger, ledgerToChainUnits } from '../src/chains/units.ts';
import { account, balanceOf } from '../src/ledger/index.ts';
import {
  available,
  type Depositor,
  depositor,
  scanToTip,
  watcherOf,
} from '../src/modules/deposits/test-kit.ts';
import {
  createPayouts,
  feeWeiToUnits,
  type Payouts,
  remotePayoutSigner,
} from '../src/modules/withdrawals/index.ts';
import { chainDifference, coldJournal, restartSigner } from './cold-kit.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type Anvil, startAnvil } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * Issue 24, DECISIONS §18's hot-wallet cap for ETH on a real node (Anvil) with the real signer process: the cold
 * sweep takes the hot address's nonce in the database like a withdrawal (one sequence space). A signer that
 * refuses the sweep (started without COLD_ADDRESS_ETH) gives the nonce back, so the next withdrawal goes out
 * with it and nothing waits behind a gap; with the signer's COLD_ADDRESS_ETH set, the worker sends exactly the
 * excess above HOT_WALLET_MAX_ETH (1) to the cold address by itself and posts the fee as `network-fee:ETH`; a
 * sweep left unsigned (the signer down) holds withdrawals back until it is signed, and a sweep stored and then
 * lost by the node is sent again after a restart: the same transaction, signed once. No test calls the sweep.
 */

const CAP = parseEther('1');
const cold = privateKeyToAccount(generatePrivateKey()).address;

let anvil: Anvil;
let signer: TestSigner;
let t: TestApp;
let payouts: Payouts;
let d: Depositor;
let hot: Address;

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

async function pass(): Promise<void> {
  const w = payouts.workers.get('ETH');
  if (!w) throw new Error('no ETH payout worker');
  expect((await w.pass()).error).toBeUndefined();
}

/** Another process takes over on the same database (the old one's lease given up, as a restart does). */
async function restartWorker(): Promise<void> {
  await payouts.stop();
  payouts = createPayouts(t.app.deps, {
    signer: remotePayoutSigner(signer.client),
    log: t.app.log,
    autoStart: false,
  });
}

async function coldSweeps() {
  const r = await sql<{
    id: number;
    request_id: string;
    status: string;
    units: string;
    txid: string | null;
    reason: string | null;
    reservation: { nonce?: number } | null;
  }>`select id, request_id, status, units::text as units, txid, reason, reservation from cold_sweeps
    where coin = 'ETH' order by id`.execute(t.app.deps.db);
  return r.rows.map((x) => ({ ...x, id: Number(x.id) }));
}

async function withdraw(to: string, amount: string): Promise<number> {
  const r = await t.call<Transfer>('POST', '/transfer/request', {
    token: d.member.token,
    body: {
      fromWalletId: d.wallet.id,
      destType: 'EXTERNAL',
      destExternalAddress: to,
      amount,
      stepUp: { password: d.member.password },
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

const hotNonce = () => anvil.client.getTransactionCount({ address: hot, blockTag: 'pending' });
const balance = (address: Address) => anvil.client.getBalance({ address });

beforeAll(async () => {
  anvil = await startAnvil();
  // No COLD_ADDRESS_ETH at first: the signer refuses every COLD_SWEEP.
  signer = await startSigner({ env: { CHAIN_NETWORK: 'testnet' } });
  hot = signer.accounts.accounts.find((a) => a.coin === 'ETH')?.hotAddress as Address;
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_ETH: anvil.url,
      CHAIN_CONFIRMATIONS_ETH: '1',
      CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
      WITHDRAW_AUTO_MAX_ETH: '1',
      WITHDRAW_MISSING_GRACE_SEC: '3600',
      HOT_WALLET_MAX_ETH: '1',
      COLD_ADDRESS_ETH: cold,
    },
    { startPayouts: false, startWatchers: false },
  );
  payouts = t.app.payouts;
  d = await depositor(t, 'ETH');
  await anvil.pay(d.wallet.address as Address, parseEther('3'));
  await scanToTip(watcherOf(t, 'ETH'));
  expect(await available(t, d, 'ETH')).toBe(300_000_000n);
}, 180_000);

afterAll(async () => {
  await payouts?.stop();
  await t?.close();
  await signer?.stop();
  await anvil?.stop();
});

describe('the hot-wallet cap of ETH swept to cold by the payout worker', () => {
  it('a sweep the signer refuses gives its nonce back: the next withdrawal goes out with it', async () => {
    await pass(); // the deposit swept to the hot address; the cold sweep refused
    expect(await balance(hot)).toBeGreaterThan(parseEther('2.99'));
    const to = freshAddress();
    const id = await withdraw(to, '0.1');
    const nonce = await hotNonce();
    await pass();
    const sent = await withdrawal(id);
    expect(sent.status).toBe('BROADCAST');
    const tx = await anvil.client.getTransaction({ hash: sent.txid as Hex });
    expect(tx.nonce).toBe(nonce);
    await pass();
    expect((await withdrawal(id)).status).toBe('COMPLETED');
    expect(await balance(to)).toBe(parseEther('0.1'));
    expect(await hotNonce()).toBe(nonce + 1);
    const sweeps = await coldSweeps();
    expect(sweeps.length).toBeGreaterThan(0);
    for (const s of sweeps) {
      expect(s.status).toBe('FAILED');
      expect(s.reason).toMatch(/not signed: SIGNER_REFUSED/);
      expect(s.txid).toBeNull();
    }
    const next = await t.app.deps.db
      .selectFrom('chain_nonces')
      .select('next_nonce')
      .where('coin', '=', 'ETH')
      .where('address', '=', hot)
      .executeTakeFirstOrThrow();
    expect(Number(next.next_nonce)).toBe(nonce + 1);
    expect(await balance(cold)).toBe(0n);
    await t.assertLedger();
  });

  it('sends exactly the excess above HOT_WALLET_MAX_ETH to the cold address and posts its fee', async () => {
    signer = await restartSigner(signer, { CHAIN_NETWORK: 'testnet', COLD_ADDRESS_ETH: cold });
    const feesBefore = await balanceOf(t.app.deps.db, account.networkFee('ETH'));
    const diffBefore = await chainDifference(t, 'ETH');
    const memberBefore = await available(t, d, 'ETH');
    await pass();
    const open = (await coldSweeps()).filter((s) => s.status !== 'FAILED');
    expect(open).toHaveLength(1);
    const sweep = open[0] as (typeof open)[number];
    expect(sweep.status).toBe('BROADCAST');
    await pass(); // mined at once (Anvil): confirmed, the fee posted; nothing more above the cap
    expect((await coldSweeps()).filter((s) => s.status !== 'FAILED').map((s) => s.status)).toEqual([
      'CONFIRMED',
    ]);

    const receipt = await anvil.client.getTransactionReceipt({ hash: sweep.txid as Hex });
    const hotBefore = await anvil.client.getBalance({ address: hot, blockNumber: receipt.blockNumber - 1n });
    const excess = ledgerToChainUnits('ETH', chainUnitsToLedger('ETH', hotBefore - CAP));
    const feeWei = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(BigInt(sweep.units)).toBe(excess);
    expect(await balance(cold)).toBe(excess);
    expect(await balance(hot)).toBe(hotBefore - excess - feeWei);
    expect(await balance(hot)).toBeLessThanOrEqual(CAP);
    expect(coldJournal(signer, sweep.request_id)).toEqual([sweep.txid]);
    expect(await balanceOf(t.app.deps.db, account.networkFee('ETH'))).toBe(
      feesBefore - feeWeiToUnits(feeWei),
    );
    // the member's coins are untouched; the chain check counts the cold address as the platform's
    expect(await available(t, d, 'ETH')).toBe(memberBefore);
    expect((await chainDifference(t, 'ETH')) - diffBefore).toBeGreaterThanOrEqual(0n);
    expect((await chainDifference(t, 'ETH')) - diffBefore).toBeLessThanOrEqual(1n);
    await t.assertLedger();
  });

  it('an unsigned sweep holds withdrawals back until it is signed; one lost by the node is sent again, once', async () => {
    const sweepsBefore = (await coldSweeps()).length;
    await signer.kill();
    await anvil.pay(hot, parseEther('1.5')); // a gift from outside puts the hot address above the cap again
    const to = freshAddress();
    const id = await withdraw(to, '0.2');
    const nonce = await hotNonce();
    await pass(); // the sweep takes the nonce, the signer does not answer: the withdrawal waits behind it
    const [held, ...none] = (await coldSweeps()).slice(sweepsBefore);
    expect(none).toEqual([]);
    expect(held).toMatchObject({ status: 'PREPARED', txid: null, reservation: { nonce } });
    expect((await withdrawal(id)).status).toBe('APPROVED');
    const attempts = t.app.deps.db
      .selectFrom('withdrawal_attempts')
      .select('id')
      .where('transfer_id', '=', id);
    expect(await attempts.execute()).toEqual([]);
    expect(await hotNonce()).toBe(nonce);

    signer = await restartSigner(signer, { CHAIN_NETWORK: 'testnet', COLD_ADDRESS_ETH: cold });
    await anvil.client.setAutomine(false);
    try {
      await restartWorker();
      await pass(); // the stored intent signed, stored, sent; then the withdrawal with the next nonce
      const [signed] = (await coldSweeps()).slice(sweepsBefore);
      expect(signed?.status).toBe('BROADCAST');
      const swept = signed?.txid as Hex;
      expect((await anvil.client.getTransaction({ hash: swept })).nonce).toBe(nonce);
      const paid = await withdrawal(id);
      expect(paid.status).toBe('BROADCAST');
      expect((await anvil.client.getTransaction({ hash: paid.txid as Hex })).nonce).toBe(nonce + 1);

      // the node loses the sweep (stored, as if never sent); another process takes over and sends it again
      await anvil.client.dropTransaction({ hash: swept });
      await restartWorker();
      await pass();
      expect((await anvil.client.getTransaction({ hash: swept })).nonce).toBe(nonce);
      await anvil.mine(1);
      await pass();
      expect((await coldSweeps()).slice(sweepsBefore).map((s) => [s.status, s.txid])).toEqual([
        ['CONFIRMED', swept],
      ]);
      expect((await withdrawal(id)).status).toBe('COMPLETED');
      expect(coldJournal(signer, signed?.request_id ?? '')).toEqual([swept]);
      expect(await hotNonce()).toBe(nonce + 2);
      expect(await balance(to)).toBe(parseEther('0.2'));
      expect(await balance(hot)).toBeLessThanOrEqual(CAP);
      await t.assertLedger();
    } finally {
      await anvil.client.setAutomine(true);
    }
  });
});
