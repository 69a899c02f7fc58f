import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { btc as btcAdapter } from '../src/chains/btc.ts';
import { entryRef } from '../src/ledger/entries.ts';
import {
  available,
  type Depositor,
  depositor,
  scanToTip,
  transfersOf,
  watcherOf,
} from '../src/modules/deposits/test-kit.ts';
import { FORWARDER_BYTECODE, forwardCall } from './forwarder.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type Anvil, hasLitecoind, type Litecoind, startAnvil, startLitecoind } from './nodes.ts';

/**
 * The deposit watcher on real nodes (DECISIONS §17), configured as an operator would (CHAIN_RPC_<COIN>,
 * CHAIN_NETWORK=regtest): ETH on Anvil (a deposit PENDING with its confirmations and credited at the count with
 * the real txid, a reorg by evm_snapshot/evm_revert dropping an unconfirmed deposit, a restart crediting nothing
 * twice, ETH paid by a contract credited once) and the BTC code on Litecoin Core in regtest (1 of 2
 * confirmations not credited, 2 credited; a deposit in a block removed by invalidateblock and double-spent in
 * the new chain DROPPED and never credited; several outputs to two members in one transaction each credited
 * once). The passes are driven by the test (`scan()`), the same code the poll loop runs.
 */

const ETHER = 10n ** 18n;
const depositRef = (coin: 'ETH' | 'BTC', txid: string, index: number) =>
  entryRef.depositCredit(coin, txid, index).ref;

describe('ETH deposits on Anvil', () => {
  let anvil: Anvil;
  let t: TestApp;

  beforeAll(async () => {
    anvil = await startAnvil();
    t = await createTestApp(
      {
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_ETH: anvil.url,
        CHAIN_CONFIRMATIONS_ETH: '3',
        CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
        CHAIN_TIMEOUT_MS: '10000',
      },
      { startWatchers: false },
    );
  });
  afterAll(async () => {
    await t?.close();
    await anvil?.stop();
  });

  const eth = () => watcherOf(t, 'ETH');
  const entries = (txid: string, index = 0) =>
    t.app.deps.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('ref', '=', depositRef('ETH', txid, index))
      .execute();

  let amy: Depositor;
  let firstTxid: string;

  it('shows a deposit PENDING with its confirmations and credits it at the count, with the real txid', async () => {
    amy = await depositor(t, 'ETH');
    firstTxid = await anvil.pay(amy.wallet.address as Address, 2n * ETHER + 123_456_789_000_000n);
    await scanToTip(eth());
    expect(await transfersOf(t, amy)).toEqual([
      expect.objectContaining({
        status: 'PENDING',
        txid: firstTxid,
        amount: '2.00012345',
        confirmations: 1,
        requiredConfirmations: 3,
      }),
    ]);
    await anvil.mine(1);
    await scanToTip(eth());
    expect((await transfersOf(t, amy))[0]).toMatchObject({ status: 'PENDING', confirmations: 2 });
    expect(await available(t, amy, 'ETH')).toBe(0n);
    await anvil.mine(1);
    await scanToTip(eth());
    expect((await transfersOf(t, amy))[0]).toMatchObject({
      status: 'COMPLETED',
      confirmations: 3,
      txid: firstTxid,
    });
    expect(await available(t, amy, 'ETH')).toBe(200_012_345n);
    expect(await entries(firstTxid)).toHaveLength(1);
    await t.assertLedger();
  });

  it('drops an unconfirmed deposit that a reorg (evm_snapshot, evm_revert, another block) removed', async () => {
    const bo = await depositor(t, 'ETH');
    const snap = await anvil.snapshot();
    const txid = await anvil.pay(bo.wallet.address as Address, ETHER);
    await scanToTip(eth());
    expect((await transfersOf(t, bo))[0]).toMatchObject({ status: 'PENDING', txid, confirmations: 1 });

    await anvil.revert(snap);
    // a different block at the same height: another payment, not to Bo
    await anvil.pay(anvil.accounts[3] as Address, 5n);
    await scanToTip(eth());
    expect((await transfersOf(t, bo))[0]).toMatchObject({ status: 'PENDING', confirmations: 0 });
    await anvil.mine(2);
    await scanToTip(eth());
    expect((await transfersOf(t, bo))[0]).toMatchObject({ status: 'DROPPED', txid });
    expect(await available(t, bo, 'ETH')).toBe(0n);
    expect(await entries(txid)).toHaveLength(0);
    await t.assertLedger();
  });

  it('credits ETH that a contract forwards (found through call traces) once', async () => {
    const cal = await depositor(t, 'ETH');
    const forwarder = await anvil.deploy(FORWARDER_BYTECODE);
    const hash = await anvil.client.sendTransaction({
      account: anvil.accounts[0] as Address,
      to: forwarder,
      value: 3n * ETHER,
      data: forwardCall(cal.wallet.address as Address),
      chain: null,
    });
    await anvil.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await anvil.mine(2);
    await scanToTip(eth());
    expect(await transfersOf(t, cal)).toEqual([
      expect.objectContaining({ status: 'COMPLETED', txid: hash, amount: '3', confirmations: 3 }),
    ]);
    expect(await available(t, cal, 'ETH')).toBe(300_000_000n);
    // the forwarder's own frame (index 0) is not a member's; the internal payment is index 1
    expect(await entries(hash, 1)).toHaveLength(1);
    expect(await entries(hash, 0)).toHaveLength(0);
    await t.assertLedger();
  });

  it('after a restart (a new instance on the same database) credits nothing twice', async () => {
    const balances = async () => [await available(t, amy, 'ETH')];
    const before = await balances();
    const entriesBefore = await t.app.deps.db.selectFrom('ledger_entries').select('id').execute();
    const dee = await depositor(t, 'ETH');
    const txid = await anvil.pay(dee.wallet.address as Address, ETHER);
    await scanToTip(eth());
    // the instance stops (its lease released) while Dee's deposit is confirming; another one starts
    await t.app.depositWatchers.stop();
    const second: App = await buildApp(t.config, {
      dbh: t.app.deps.dbh,
      serveWeb: false,
      skipStartupTasks: true,
      startWatchers: false,
    });
    try {
      await anvil.mine(2);
      await scanToTip(watcherOf({ ...t, app: second }, 'ETH'));
      expect(await balances()).toEqual(before);
      expect(await transfersOf(t, dee)).toEqual([expect.objectContaining({ status: 'COMPLETED', txid })]);
      expect(await available(t, dee, 'ETH')).toBe(100_000_000n);
      const entriesAfter = await t.app.deps.db.selectFrom('ledger_entries').select('id').execute();
      expect(entriesAfter.length).toBe(entriesBefore.length + 1);
      expect(await entries(firstTxid)).toHaveLength(1);
      await t.assertLedger();
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(!hasLitecoind())('BTC deposits on Litecoin Core regtest', () => {
  let node: Litecoind;
  let t: TestApp;

  beforeAll(async () => {
    node = await startLitecoind();
    t = await createTestApp(
      {
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_BTC: node.url,
        CHAIN_CONFIRMATIONS_BTC: '2',
        CHAIN_START_HEIGHT_BTC: String((await node.height()) + 1),
        CHAIN_TIMEOUT_MS: '30000',
      },
      { startWatchers: false },
    );
  });
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  const btc = () => watcherOf(t, 'BTC');

  it('does not credit at 1 of 2 confirmations, credits at 2', async () => {
    const ada = await depositor(t, 'BTC');
    expect(ada.wallet.address).toMatch(/^bcrt1/);
    const txid = await node.pay(ada.wallet.address, '0.5');
    const vout = await node.voutOf(txid, ada.wallet.address);
    await node.mine(1);
    await scanToTip(btc());
    expect(await transfersOf(t, ada)).toEqual([
      expect.objectContaining({
        status: 'PENDING',
        txid,
        amount: '0.5',
        confirmations: 1,
        requiredConfirmations: 2,
      }),
    ]);
    expect(await available(t, ada, 'BTC')).toBe(0n);
    await node.mine(1);
    await scanToTip(btc());
    expect((await transfersOf(t, ada))[0]).toMatchObject({ status: 'COMPLETED', confirmations: 2 });
    expect(await available(t, ada, 'BTC')).toBe(50_000_000n);
    const entries = await t.app.deps.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('ref', '=', depositRef('BTC', txid, vout))
      .execute();
    expect(entries).toHaveLength(1);
    await t.assertLedger();
  });

  it('drops a deposit whose block was invalidated and whose transaction was double-spent in the new chain', async () => {
    const ben = await depositor(t, 'BTC');
    const txid = await node.pay(ben.wallet.address, '0.25');
    const [hash] = await node.mine(1);
    await scanToTip(btc());
    expect((await transfersOf(t, ben))[0]).toMatchObject({ status: 'PENDING', txid, confirmations: 1 });

    await node.invalidateBlock(hash as string);
    const replacement = await node.doubleSpend(txid);
    expect(replacement).not.toBe(txid);
    await node.mine(2);
    await scanToTip(btc());
    expect(await transfersOf(t, ben)).toEqual([expect.objectContaining({ status: 'DROPPED', txid })]);
    await node.mine(3);
    await scanToTip(btc());
    expect((await transfersOf(t, ben))[0]?.status).toBe('DROPPED');
    expect(await available(t, ben, 'BTC')).toBe(0n);
    await t.assertLedger();
  });

  it('credits several outputs to two members in one transaction, each once', async () => {
    const cy = await depositor(t, 'BTC');
    const dot = await depositor(t, 'BTC');
    // and one output to an address no member has (besides the node wallet's change)
    const stranger = btcAdapter.addressFromPublicKey(
      secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
      'regtest',
    );
    const txid = await node.payMany({
      [cy.wallet.address]: '0.1',
      [stranger]: '0.3',
      [dot.wallet.address]: '0.2',
    });
    await node.mine(2);
    await scanToTip(btc());
    await node.mine(2);
    await scanToTip(btc());
    const [cyDep] = await transfersOf(t, cy);
    const [dotDep] = await transfersOf(t, dot);
    expect(cyDep).toMatchObject({ status: 'COMPLETED', txid, amount: '0.1' });
    expect(dotDep).toMatchObject({ status: 'COMPLETED', txid, amount: '0.2' });
    expect(await available(t, cy, 'BTC')).toBe(10_000_000n);
    expect(await available(t, dot, 'BTC')).toBe(20_000_000n);
    const refs = await t.app.deps.db
      .selectFrom('ledger_entries')
      .select('ref')
      .where('ref', 'like', `deposit:BTC:${txid}:%`)
      .execute();
    expect(refs).toHaveLength(2);
    await t.assertLedger();
  });
});
