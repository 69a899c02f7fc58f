import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRippled, randomXrpAddress, startFakeRippled } from '../../test/fake-rippled.ts';
import { type FakeTron, randomTronAddress, startFakeTron } from '../../test/fake-tron.ts';
import { type Anvil, hasLitecoind, type Litecoind, startAnvil, startLitecoind } from '../../test/nodes.ts';
import { btcBalances, ethBalances, trxBalances, xrpBalances } from './balances.ts';
import { ChainNodeError } from './reader.ts';

/*
 * The balance calls of proof of reserves (DECISIONS §20) against real nodes where one runs here (Anvil,
 * litecoind regtest) and the fake rippled / java-tron servers otherwise: the right figure per address, 0 for
 * an address the chain never saw, and a ChainNodeError (never a zero) for a node that fails or lies.
 */

const randomEthAddress = () => `0x${randomBytes(20).toString('hex')}`;
const randomBcrt1 = () => bech32.encode('bcrt', [0, ...bech32.toWords(randomBytes(20))]);

describe('ETH balances (Anvil)', () => {
  let anvil: Anvil;
  beforeAll(async () => {
    anvil = await startAnvil();
  }, 60_000);
  afterAll(() => anvil?.stop());

  it('reads each address at latest, an unseen one as 0', async () => {
    const [a, b] = [randomEthAddress(), randomEthAddress()];
    await anvil.pay(a as `0x${string}`, 1_234_567_890_123_456_789n);
    const r = await ethBalances(anvil.url, 10_000).balances([a, b, a]);
    expect([...r.entries()]).toEqual([
      [a, 1_234_567_890_123_456_789n],
      [b, 0n],
    ]);
  });

  it('throws ChainNodeError for a node that does not answer, and for a non-address', async () => {
    const down = ethBalances('http://127.0.0.1:9', 2_000);
    await expect(down.balances([randomEthAddress()])).rejects.toBeInstanceOf(ChainNodeError);
    await expect(ethBalances(anvil.url, 10_000).balances(['0x12'])).rejects.toBeInstanceOf(ChainNodeError);
  });
});

describe('XRP balances (fake rippled, account_info)', () => {
  let node: FakeRippled;
  beforeAll(async () => {
    node = await startFakeRippled();
    node.addLedger();
  });
  afterAll(() => node?.close());

  it('reads the validated balance in drops, actNotFound as 0', async () => {
    const [a, b] = [randomXrpAddress(), randomXrpAddress()];
    node.fund(a, 50_000_123n);
    node.addLedger(); // account_info reads the validated ledger's accounts
    const r = await xrpBalances(node.url).balances([a, b]);
    expect(r.get(a)).toBe(50_000_123n);
    expect(r.get(b)).toBe(0n);
    const asked = node.requests.filter((q) => q.method === 'account_info').at(-1);
    expect(asked?.params).toMatchObject({ account: b, ledger_index: 'validated', strict: true });
  });

  it('refuses an answer for another account, an unvalidated one, a negative balance or garbage', async () => {
    const a = randomXrpAddress();
    node.fund(a, 1n);
    node.addLedger();
    const lies: ((r: { result: Record<string, unknown> }) => unknown)[] = [
      (r) => ({ result: { ...r.result, account_data: { Account: randomXrpAddress(), Balance: '1' } } }),
      (r) => ({ result: { ...r.result, validated: false } }),
      (r) => ({ result: { ...r.result, account_data: { Account: a, Balance: '-5' } } }),
      (r) => ({ result: { ...r.result, status: 'error', error: 'noNetwork' } }),
    ];
    for (const lie of lies) {
      node.rewrite = lie;
      await expect(xrpBalances(node.url).balances([a])).rejects.toBeInstanceOf(ChainNodeError);
    }
    node.rewrite = null;
    node.mode = 'garbage';
    await expect(xrpBalances(node.url).balances([a])).rejects.toBeInstanceOf(ChainNodeError);
    node.mode = 'ok';
    expect((await xrpBalances(node.url).balances([a])).get(a)).toBe(1n);
  });
});

describe('TRX balances (fake java-tron, getaccount)', () => {
  let node: FakeTron;
  beforeAll(async () => {
    node = await startFakeTron();
  });
  afterAll(() => node?.close());

  it('reads sun per address, an unknown account as 0, and fails loudly on a 500', async () => {
    const [a, b] = [randomTronAddress(), randomTronAddress()];
    node.balances.set(a, 7_000_000n);
    const r = await trxBalances(node.url, {}).balances([a, b]);
    expect(r.get(a)).toBe(7_000_000n);
    expect(r.get(b)).toBe(0n);
    node.mode = 'http500';
    await expect(trxBalances(node.url, {}).balances([a])).rejects.toBeInstanceOf(ChainNodeError);
    node.mode = 'ok';
  });
});

describe.skipIf(!hasLitecoind())('BTC balances (litecoind regtest, scantxoutset)', () => {
  let ltc: Litecoind;
  beforeAll(async () => {
    ltc = await startLitecoind();
  }, 120_000);
  afterAll(() => ltc?.stop());

  it('scans every address in one call by script, confirmed outputs summed per address', async () => {
    const [a, b, c] = [randomBcrt1(), randomBcrt1(), randomBcrt1()];
    await ltc.pay(a, '0.5');
    await ltc.pay(a, '0.25');
    await ltc.pay(b, '1.00000001');
    await ltc.mine(1);
    const r = await btcBalances(ltc.url).balances([a, b, c]);
    expect(r.get(a)).toBe(75_000_000n);
    expect(r.get(b)).toBe(100_000_001n);
    expect(r.get(c)).toBe(0n);
  });

  it('throws for an address that is not segwit and for a node that is gone', async () => {
    await expect(
      btcBalances(ltc.url).balances(['1BoatSLRHtKNngkdXEeobR76b53LETtpyT']),
    ).rejects.toBeInstanceOf(ChainNodeError);
    await expect(btcBalances('http://u:p@127.0.0.1:9').balances([randomBcrt1()])).rejects.toBeInstanceOf(
      ChainNodeError,
    );
  });
});
