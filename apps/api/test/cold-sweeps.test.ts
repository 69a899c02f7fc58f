import { fromUnits } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balanceOf } from '../src/ledger/index.ts';
import {
  available,
  type Depositor,
  depositor,
  scanToTip,
  watcherOf,
} from '../src/modules/deposits/test-kit.ts';
import { randomRecipient } from './btc-addresses.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { hasLitecoind, type Litecoind, startLitecoind, toLitecoinRegtestAddress } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * DECISIONS §18's hot-wallet cap, as the payout worker runs it (no test calls the sweep itself): with
 * HOT_WALLET_MAX_BTC 0.2 and COLD_ADDRESS_BTC set, a credited 0.5 BTC deposit leaves the hot keys holding too much;
 * the worker's next pass sends the excess (0.3) to the cold address through the real signer, the one after the
 * confirmation posts the sweep's network fee, and the ledger's chain comparison counts the cold address as the
 * platform's, so it still shows no difference. On Litecoin Core regtest (DECISIONS §17).
 */

const SAT = 100_000_000n;

describe.skipIf(!hasLitecoind())('the hot-wallet cap swept to cold by the payout worker (BTC)', () => {
  let node: Litecoind;
  let signer: TestSigner;
  let t: TestApp;
  let d: Depositor;
  const cold = randomRecipient();

  beforeAll(async () => {
    [node, signer] = await Promise.all([
      startLitecoind(),
      startSigner({ env: { CHAIN_NETWORK: 'regtest', COLD_ADDRESS_BTC: cold } }),
    ]);
    t = await createTestApp(
      {
        ...signer.apiEnv,
        CHAIN_RPC_BTC: node.url,
        CHAIN_CONFIRMATIONS_BTC: '1',
        CHAIN_START_HEIGHT_BTC: String((await node.height()) + 1),
        CHAIN_TIMEOUT_MS: '30000',
        WITHDRAW_MISSING_GRACE_SEC: '3600',
        HOT_WALLET_MAX_BTC: '0.2',
        COLD_ADDRESS_BTC: cold,
      },
      { startPayouts: false, startWatchers: false },
    );
    d = await depositor(t, 'BTC');
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await signer?.stop();
    await node?.stop();
  });

  async function pass(): Promise<void> {
    const w = t.app.payouts.workers.get('BTC');
    if (!w) throw new Error('no BTC payout worker');
    const r = await w.pass();
    expect(r.error).toBeUndefined();
  }

  async function sweeps() {
    const r = await sql<{
      id: number;
      status: string;
      txid: string | null;
      units: string;
      to_address: string;
    }>`
      select id, status, txid, units::text as units, to_address from cold_sweeps
      where purpose = 'COLD_SWEEP' order by id`.execute(t.app.deps.db);
    return r.rows;
  }

  async function onNode(address: string): Promise<bigint> {
    const scan = await node.rpc<{ total_amount: number }>('scantxoutset', [
      'start',
      [`addr(${toLitecoinRegtestAddress(address)})`],
    ]);
    return BigInt(scan.total_amount.toFixed(8).replace('.', ''));
  }

  it('sends the excess above HOT_WALLET_MAX_BTC to the cold address once, then posts its fee', async () => {
    await node.pay(d.wallet.address, '0.5');
    await node.mine(1);
    await scanToTip(watcherOf(t, 'BTC'));
    expect(await available(t, d, 'BTC')).toBe(SAT / 2n);

    await pass();
    const [sweep, ...more] = await sweeps();
    expect(more).toEqual([]);
    expect(sweep).toMatchObject({ status: 'BROADCAST', to_address: cold, units: '30000000' });
    await pass(); // still unconfirmed: no second sweep while one is open
    expect(await sweeps()).toHaveLength(1);

    const [block] = await node.mine(1);
    await pass();
    expect((await sweeps())[0]?.status).toBe('CONFIRMED');
    expect(await onNode(cold)).toBe(30_000_000n);
    const tx = await node.rpc<{ vout: { value: number }[] }>('getrawtransaction', [sweep?.txid, true, block]);
    const paidOut = tx.vout.reduce((s, o) => s + BigInt(o.value.toFixed(8).replace('.', '')), 0n);
    const fee = SAT / 2n - paidOut;
    expect(fee).toBeGreaterThan(0n);
    expect(await balanceOf(t.app.deps.db, account.networkFee('BTC'))).toBe(-fee);
    // The member's coins are untouched; the hot keys hold the cap less the fee.
    expect(await available(t, d, 'BTC')).toBe(SAT / 2n);
    expect(await t.app.payouts.payouts.get('BTC')?.hotBalance()).toBe(20_000_000n - fee);

    await pass(); // under the cap now: nothing more
    expect(await sweeps()).toHaveLength(1);
    const checks = await Promise.all(t.app.deps.chainChecks.map((c) => c()));
    expect(checks.find((c) => c.coinCode === 'BTC')).toMatchObject({
      difference: fromUnits(0n),
      error: null,
    });
    await t.assertLedger();
  });
});
