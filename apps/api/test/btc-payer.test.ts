import { hex } from '@scure/base';
import { Block, address as bitcoinAddress, Transaction } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { btcWriter } from '../src/chains/btc-writer.ts';
import { CHAIN_ADAPTERS, parseAccountKey } from '../src/chains/index.ts';
import { depositor, scanToTip, watcherOf } from '../src/modules/deposits/test-kit.ts';
import {
  BtcPayer,
  bitcoinjsNetwork,
  btcCustodySource,
  custody,
  loadCustodyConfig,
  type PayAttempt,
  type PayRequest,
  remotePayoutSigner,
  type SignRequest,
  settleColdSweeps,
  sweepExcessToCold,
  unspentOutputs,
} from '../src/modules/withdrawals/index.ts';
import { randomRecipient } from './btc-addresses.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { hasLitecoind, type Litecoind, startLitecoind, toLitecoinRegtestAddress } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/**
 * The BTC payer on Litecoin Core regtest (DECISIONS §18): deposits paid to members' addresses and credited by the
 * watcher become the platform's outputs; a withdrawal is selected, built as a PSBT, signed by the real signer
 * (apps/signer, its own process on the public TEST seed whose account key the API was given), broadcast and
 * mined; the recipient gets exactly the amount, the change comes back to 1/n and pays the next withdrawal; a
 * replacement spends the same inputs so only one of the two transactions ever confirms.
 */

/** The cold address of the sweep test, known to the signer (it signs a COLD_SWEEP only to COLD_ADDRESS_BTC). */
const COLD = randomRecipient();

describe.skipIf(!hasLitecoind())('BTC payer on Litecoin Core regtest', () => {
  let node: Litecoind;
  let signer: TestSigner;
  let t: TestApp;
  let payer: BtcPayer;
  let seq = 0;

  beforeAll(async () => {
    node = await startLitecoind();
    signer = await startSigner({ env: { CHAIN_NETWORK: 'regtest', COLD_ADDRESS_BTC: COLD } });
    t = await createTestApp(
      {
        ...signer.apiEnv,
        CHAIN_RPC_BTC: node.url,
        CHAIN_CONFIRMATIONS_BTC: '1',
        CHAIN_START_HEIGHT_BTC: String((await node.height()) + 1),
        CHAIN_TIMEOUT_MS: '30000',
      },
      { startWatchers: false },
    );
    payer = new BtcPayer({
      db: t.app.deps.db,
      node: btcWriter(node.url, 30_000),
      network: 'regtest',
      account: parseAccountKey(signer.xpubs.BTC),
      accountPath: CHAIN_ADAPTERS.BTC.accountPath('regtest'),
      masterFingerprint: hex.decode(signer.accounts.masterFingerprint),
      fallbackFeeRate: 20,
      confirmations: 1,
      // Litecoin Core relays no output below 30 sat/vB worth of spending it (Bitcoin Core: 3)
      dustRelayFeeRate: 30,
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await signer?.stop();
    await node?.stop();
  });

  /** Pays `amount` (coins) to a fresh member's deposit address and lets the watcher credit it. */
  async function deposit(amount: string): Promise<void> {
    const d = await depositor(t, 'BTC');
    await node.pay(d.wallet.address, amount);
    await node.mine(1);
    await scanToTip(watcherOf(t, 'BTC'));
  }

  function request(address: string, units: bigint, replaces: PayAttempt | null = null): PayRequest {
    const id = replaces ? seq : ++seq;
    return {
      requestId: replaces ? `withdrawal:${id}:r1` : `withdrawal:${id}`,
      withdrawalId: id,
      address,
      destTag: null,
      units,
      replaces,
    };
  }

  /** Asks the signer process, as the payout worker does (its shape checked first). */
  async function sign(req: SignRequest) {
    const r = await remotePayoutSigner(signer.client).sign(req);
    const tx = Transaction.fromHex(r.signedTx);
    expect(tx.getId()).toBe(r.txid);
    return { signedTx: r.signedTx, txid: r.txid, tx };
  }

  async function prepareAndSign(req: PayRequest) {
    const prepared = await t.app.deps.db.transaction().execute((tx) => payer.prepare(tx, req));
    const signed = await sign({
      requestId: req.requestId,
      coin: 'BTC',
      purpose: 'WITHDRAWAL',
      intent: prepared.intent,
    });
    return { prepared, ...signed };
  }

  /** What the block `hash` pays to `address`, in satoshi, and which of `txids` it holds. */
  async function inBlock(hash: string, address: string, txids: string[]) {
    const hex = await node.rpc<string>('getblock', [hash, 0]);
    const block = Block.fromHex(hex);
    const script = bitcoinAddress.toOutputScript(address, bitcoinjsNetwork('regtest'));
    const ids = (block.transactions ?? []).map((x) => x.getId());
    let paid = 0n;
    for (const x of block.transactions ?? []) {
      for (const o of x.outs) if (Buffer.from(o.script).equals(Buffer.from(script))) paid += o.value;
    }
    return { paid, present: txids.filter((id) => ids.includes(id)) };
  }

  it('pays a withdrawal from credited deposits; the recipient gets exactly the amount; change returns to 1/n', async () => {
    await deposit('0.5');
    await deposit('0.3');
    const outputs = await unspentOutputs(t.app.deps.db, 'BTC');
    expect(outputs.map((o) => [o.units, o.source, o.path.startsWith('0/')])).toEqual(
      expect.arrayContaining([
        [50_000_000n, 'DEPOSIT', true],
        [30_000_000n, 'DEPOSIT', true],
      ]),
    );
    const to = randomRecipient();
    const { prepared, signedTx, txid, tx } = await prepareAndSign(request(to, 60_000_000n));
    // regtest has no fee estimate: CHAIN_FEE_RATE_BTC (20 sat/vB) applies
    expect(prepared.reservation.feeRate).toBe(20);
    expect(tx.ins.every((i) => i.sequence < 0xfffffffe)).toBe(true);
    expect(await payer.broadcast(signedTx, txid)).toEqual({ kind: 'ACCEPTED' });
    expect(await payer.broadcast(signedTx, txid)).toEqual({ kind: 'KNOWN' });
    expect(await payer.state(txid)).toEqual({ kind: 'PENDING', confirmations: 0 });
    const [hash] = await node.mine(1);
    const state = await payer.state(txid);
    const fee = BigInt(prepared.reservation.fee as string);
    expect(state).toEqual({ kind: 'CONFIRMED', confirmations: 1, feeUnits: fee });
    expect(Number(fee) / tx.virtualSize()).toBeGreaterThanOrEqual(20);
    expect((await inBlock(hash as string, to, [txid])).paid).toBe(60_000_000n);

    const change = prepared.reservation.change as { address: string; path: string; sats: string };
    expect(change.path).toMatch(/^1\/\d+$/);
    expect(BigInt(change.sats)).toBe(80_000_000n - 60_000_000n - fee);
    const after = await unspentOutputs(t.app.deps.db, 'BTC');
    expect(after).toEqual([
      expect.objectContaining({
        txid,
        source: 'CHANGE',
        path: change.path,
        units: BigInt(change.sats),
        confirmed: true,
      }),
    ]);

    // the next withdrawal spends that change
    const to2 = randomRecipient();
    const second = await prepareAndSign(request(to2, 10_000_000n));
    expect(second.tx.ins.map((i) => Buffer.from(i.hash).reverse().toString('hex'))).toEqual([txid]);
    expect(await payer.broadcast(second.signedTx, second.txid)).toEqual({ kind: 'ACCEPTED' });
    const [hash2] = await node.mine(1);
    expect((await payer.state(second.txid)).kind).toBe('CONFIRMED');
    expect((await inBlock(hash2 as string, to2, [second.txid])).paid).toBe(10_000_000n);
  });

  it('A FAILED BTC withdrawal retried by replacement never confirms both transactions', async () => {
    await deposit('0.4');
    const to = randomRecipient();
    const first = await prepareAndSign(request(to, 15_000_000n));
    expect(await payer.broadcast(first.signedTx, first.txid)).toEqual({ kind: 'ACCEPTED' });
    // the pipeline marked it FAILED; the operator retries: a replacement of the same inputs at a higher fee
    const attempt: PayAttempt = { requestId: `withdrawal:${seq}`, reservation: first.prepared.reservation };
    const second = await prepareAndSign(request(to, 15_000_000n, attempt));
    const firstInputs = first.tx.ins.map((i) => `${Buffer.from(i.hash).toString('hex')}:${i.index}`);
    const secondInputs = second.tx.ins.map((i) => `${Buffer.from(i.hash).toString('hex')}:${i.index}`);
    expect(secondInputs).toEqual(expect.arrayContaining(firstInputs));
    expect(second.prepared.reservation.feeRate as number).toBeGreaterThan(
      first.prepared.reservation.feeRate as number,
    );
    expect(await payer.broadcast(second.signedTx, second.txid)).toEqual({ kind: 'ACCEPTED' });
    // the first can no longer get in: the node refuses it (its inputs are spent by the replacement)
    expect((await payer.broadcast(first.signedTx, first.txid)).kind).toBe('REJECTED');
    const [hash] = await node.mine(3);
    const seen = await inBlock(hash as string, to, [first.txid, second.txid]);
    expect(seen.present).toEqual([second.txid]);
    expect(seen.paid).toBe(15_000_000n);
    expect((await payer.state(second.txid)).kind).toBe('CONFIRMED');
    expect(await payer.state(first.txid)).toEqual({ kind: 'MISSING' });
    // and the recipient was paid exactly once on the whole chain
    const scan = await node.rpc<{ total_amount: number; unspents: unknown[] }>('scantxoutset', [
      'start',
      [`addr(${toLitecoinRegtestAddress(to)})`],
    ]);
    expect(scan.unspents).toHaveLength(1);
    expect(scan.total_amount.toFixed(8)).toBe('0.15000000');
  });

  it('a replacement prepared after the first attempt was mined is refused by the node and the first stands', async () => {
    await deposit('0.2');
    const to = randomRecipient();
    const first = await prepareAndSign(request(to, 5_000_000n));
    expect(await payer.broadcast(first.signedTx, first.txid)).toEqual({ kind: 'ACCEPTED' });
    const attempt: PayAttempt = { requestId: `withdrawal:${seq}`, reservation: first.prepared.reservation };
    const second = await prepareAndSign(request(to, 5_000_000n, attempt));
    await node.mine(1);
    expect((await payer.broadcast(second.signedTx, second.txid)).kind).toBe('REJECTED');
    expect((await payer.state(first.txid)).kind).toBe('CONFIRMED');
    expect(await payer.state(second.txid)).toEqual({ kind: 'MISSING' });
    // a confirmed attempt's inputs are spent: no later replacement can take them
    await expect(prepareAndSign(request(to, 5_000_000n, attempt))).rejects.toThrow(/spent or held/);
    expect(Transaction.fromHex(first.signedTx).getId()).toBe(first.txid);
  });

  it('sweeps what the hot outputs hold above HOT_WALLET_MAX_BTC to the cold address, and shows it', async () => {
    await deposit('0.6');
    const cold = COLD;
    const cfg = loadCustodyConfig({ HOT_WALLET_MAX_BTC: '0.1', COLD_ADDRESS_BTC: cold }, 'regtest');
    const writer = btcWriter(node.url, 30_000);
    const source = btcCustodySource(t.app.deps.db, (a) => writer.balanceOf(toLitecoinRegtestAddress(a)));
    const hot = await source.hotBalance();
    const requestId = await sweepExcessToCold(t.app.deps.db, { cfg, payer, source, sign });
    expect(requestId).toMatch(/^cold:BTC:\d+$/);
    await node.mine(1);
    expect(await settleColdSweeps(t.app.deps.db, payer)).toBe(1);
    expect(await source.balanceOf(cold)).toBe(hot - 10_000_000n);
    const [row] = (await custody(t.app.deps.db, cfg, [source])).filter((r) => r.coinCode === 'BTC');
    // members were credited 2 BTC of deposits; the cold address holds about half: below 80%, a warning
    const pct = Number(((hot - 10_000_000n) * 10_000n) / 200_000_000n) / 100;
    expect(row).toMatchObject({ coldAddress: cold, liabilities: '2', coldSharePct: pct, warning: true });
    expect(BigInt(Math.round(Number(row?.coldBalance) * 1e8))).toBe(hot - 10_000_000n);
  });
});
