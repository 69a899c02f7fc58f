import { randomBytes } from 'node:crypto';
import type { CoinReserves } from '@p2p/contract';
import { controlMessage, verifyControl } from '@p2p/reserves';
import { bech32 } from '@scure/base';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRippled, startFakeRippled } from '../../../test/fake-rippled.ts';
import { type FakeTron, startFakeTron } from '../../../test/fake-tron.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { type Anvil, hasLitecoind, type Litecoind, startAnvil, startLitecoind } from '../../../test/nodes.ts';
import { startSigner, type TestSigner } from '../../../test/signer.ts';
import { hotAddress, xrpDepositAccount } from '../../chains/index.ts';
import { operator, type Trader, trader } from '../orders/test-kit.ts';

/**
 * Reserves read from the nodes (DECISIONS §20) with the real signer process: ETH on Anvil (hot, an unswept
 * deposit address, the cold address), XRP and TRX on the fake rippled / java-tron servers, BTC without a node
 * (the declared figure). Each address with a key carries a control signature over the snapshot's root that
 * verifies with packages/reserves alone; a failing node makes the coin UNAVAILABLE, never zero nor declared.
 */

const ETH = 10n ** 18n;
const COLD_ETH = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';

let t: TestApp;
let signer: TestSigner;
let anvil: Anvil;
let rippled: FakeRippled;
let tron: FakeTron;
let op: { token: string };
let ethMember: Trader;

async function snapshot(coinCode: string): Promise<CoinReserves> {
  const r = await t.call<CoinReserves[]>('POST', '/ops/api/v1/reserves/snapshot', {
    token: op.token,
    body: { coinCode },
  });
  expect(r.status).toBe(200);
  const pub = await t.call<CoinReserves[]>('GET', '/api/v1/reserves');
  const coin = pub.body.returnData.find((c) => c.coinCode === coinCode);
  if (!coin) throw new Error(`no ${coinCode} in GET /api/v1/reserves`);
  return coin;
}

async function verified(coin: CoinReserves, address: string): Promise<boolean> {
  const a = coin.addresses.find((x) => x.address === address);
  if (!a) throw new Error(`${address} not in the ${coin.coinCode} reserves`);
  return verifyControl(
    { coinCode: coin.coinCode, ...a },
    controlMessage(coin.coinCode, address, coin.rootHash),
  );
}

beforeAll(async () => {
  [signer, anvil, rippled, tron] = await Promise.all([
    startSigner(),
    startAnvil(),
    startFakeRippled(),
    startFakeTron(),
  ]);
  rippled.addLedger();
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_ETH: anvil.url,
      CHAIN_RPC_XRP: rippled.url,
      CHAIN_RPC_TRX: tron.url,
      COLD_ADDRESS_ETH: COLD_ETH,
      RESERVES_SNAPSHOT_HOURS: '0',
    },
    { startWatchers: false, startPayouts: false },
  );
  op = await operator(t);
  ethMember = await trader(t, 'ETH', undefined, 'Kim Minsu');
  await trader(t, 'XRP', '10', 'Lee Jisoo');
  await trader(t, 'TRX', '100', 'Park Hana');
  // the member's deposit of 1 ETH, credited by an operator and still on the deposit address (no sweep yet)
  const credit = await t.call('POST', '/ops/api/v1/deposits', {
    token: op.token,
    body: {
      coinCode: 'ETH',
      address: ethMember.wallet.address,
      amount: '1',
      txid: `0x${randomBytes(32).toString('hex')}`,
    },
  });
  expect(credit.status).toBe(200);
  await anvil.pay(ethMember.wallet.address as `0x${string}`, ETH);
  await anvil.pay(hotAddress('ETH') as `0x${string}`, 2n * ETH);
  await anvil.pay(COLD_ETH, 3n * ETH);
  rippled.fund(xrpDepositAccount(), 50_000_000n);
  rippled.addLedger(); // account_info reads the validated ledger's accounts
  tron.balances.set(hotAddress('TRX'), 7_000_000n);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([signer?.stop(), anvil?.stop(), rippled?.close(), tron?.close()]);
});

describe('reserves from the nodes', () => {
  it('ETH: hot, unswept deposit and cold addresses read from the node, each key-held one signed over the root', async () => {
    const eth = await snapshot('ETH');
    expect(eth).toMatchObject({
      reservesSource: 'NODE',
      reserves: '6',
      liabilities: '1',
      ratioPct: '600.00',
    });
    const byRole = Object.fromEntries(eth.addresses.map((a) => [a.role, a]));
    expect(byRole.HOT).toMatchObject({ address: hotAddress('ETH'), balance: '2', scheme: 'eip191' });
    expect(byRole.DEPOSIT).toMatchObject({
      address: ethMember.wallet.address,
      balance: '1',
      scheme: 'eip191',
    });
    expect(byRole.COLD).toMatchObject({ address: COLD_ETH, balance: '3', signature: null });
    expect(await verified(eth, hotAddress('ETH'))).toBe(true);
    expect(await verified(eth, ethMember.wallet.address)).toBe(true);
    expect(await verified(eth, COLD_ETH)).toBe(false);
    // the signature binds the address and this snapshot's root: another root or address does not verify
    const hot = byRole.HOT as CoinReserves['addresses'][number];
    const otherRoot = controlMessage('ETH', hot.address, 'ab'.repeat(32));
    expect(await verifyControl({ coinCode: 'ETH', ...hot }, otherRoot)).toBe(false);
    const moved = { coinCode: 'ETH', ...hot, address: ethMember.wallet.address };
    expect(await verifyControl(moved, controlMessage('ETH', moved.address, eth.rootHash))).toBe(false);
  });

  it('XRP and TRX: the platform account and the hot address, signed (secp256k1 over sha256) and verified', async () => {
    const xrp = await snapshot('XRP');
    expect(xrp).toMatchObject({
      reservesSource: 'NODE',
      reserves: '50',
      liabilities: '10',
      ratioPct: '500.00',
    });
    expect(xrp.addresses).toEqual([expect.objectContaining({ role: 'PLATFORM', balance: '50' })]);
    expect(await verified(xrp, xrpDepositAccount())).toBe(true);
    const trx = await snapshot('TRX');
    expect(trx).toMatchObject({ reservesSource: 'NODE', reserves: '7', ratioPct: '7.00' });
    expect(await verified(trx, hotAddress('TRX'))).toBe(true);
  });

  it('a coin without a node keeps the declared figure, marked declared, with no addresses', async () => {
    await trader(t, 'BTC', '2', 'Choi Yuna');
    await t.call('POST', '/ops/api/v1/reserves/declare', {
      token: op.token,
      body: { coinCode: 'BTC', amount: '3' },
    });
    expect(await snapshot('BTC')).toMatchObject({
      reservesSource: 'DECLARED',
      reserves: '3',
      ratioPct: '150.00',
      addresses: [],
    });
  });

  it('a node that fails or lies makes the reserves UNAVAILABLE, never zero and never the declared figure', async () => {
    await t.call('POST', '/ops/api/v1/reserves/declare', {
      token: op.token,
      body: { coinCode: 'XRP', amount: '99' },
    });
    rippled.mode = 'garbage';
    const garbled = await snapshot('XRP');
    expect(garbled).toMatchObject({
      reservesSource: 'UNAVAILABLE',
      reserves: null,
      ratioPct: null,
      addresses: [],
    });
    expect(garbled.liabilities).toBe('10');
    rippled.mode = 'ok';
    rippled.rewrite = (a) => ({ result: { ...a.result, validated: false } });
    expect(await snapshot('XRP')).toMatchObject({ reservesSource: 'UNAVAILABLE', reserves: null });
    rippled.rewrite = null;
    expect(await snapshot('XRP')).toMatchObject({ reservesSource: 'NODE', reserves: '50' });
  });

  it('without the signer the balances are still read, published unsigned', async () => {
    await signer.stop();
    const trx = await snapshot('TRX');
    expect(trx).toMatchObject({ reservesSource: 'NODE', reserves: '7' });
    expect(trx.addresses.every((a) => a.signature === null)).toBe(true);
  });
});

describe.skipIf(!hasLitecoind())('BTC reserves from the node (litecoind regtest)', () => {
  let b: TestApp;
  let bSigner: TestSigner;
  let ltc: Litecoind;
  const cold = bech32.encode('bcrt', [0, ...bech32.toWords(randomBytes(20))]);
  beforeAll(async () => {
    [bSigner, ltc] = await Promise.all([
      startSigner({ env: { CHAIN_NETWORK: 'regtest' } }),
      startLitecoind(),
    ]);
    b = await createTestApp(
      { ...bSigner.apiEnv, CHAIN_RPC_BTC: ltc.url, COLD_ADDRESS_BTC: cold, RESERVES_SNAPSHOT_HOURS: '0' },
      { startWatchers: false, startPayouts: false },
    );
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await Promise.all([bSigner?.stop(), ltc?.stop()]);
  });

  it('reads the deposit outputs and the cold address in one scan; the deposit key signs (BIP-137), verified', async () => {
    const bOp = await operator(b);
    const m = await trader(b, 'BTC', '0.3', 'Jung Somin');
    const txid = await ltc.pay(m.wallet.address, '0.3');
    await ltc.pay(cold, '0.2');
    await ltc.mine(1);
    const vout = await ltc.voutOf(txid, m.wallet.address);
    // what the deposit watcher's credit leaves behind (020's trigger): the output, spendable by the key at 0/i
    await sql`insert into chain_outputs (coin, txid, vout, units, address, path, source, confirmed)
      select 'BTC', ${txid}, ${vout}, 30000000, address, '0/' || derivation_index, 'DEPOSIT', true
      from wallets where id = ${m.wallet.id}`.execute(b.app.deps.db);
    const r = await b.call<CoinReserves[]>('POST', '/ops/api/v1/reserves/snapshot', {
      token: bOp.token,
      body: { coinCode: 'BTC' },
    });
    const btc = r.body.returnData.find((c) => c.coinCode === 'BTC') as CoinReserves;
    expect(btc).toMatchObject({
      reservesSource: 'NODE',
      reserves: '0.5',
      liabilities: '0.3',
      ratioPct: '166.66',
    });
    const deposit = btc.addresses.find((a) => a.role === 'DEPOSIT');
    expect(deposit).toMatchObject({ address: m.wallet.address, balance: '0.3', scheme: 'bip137' });
    expect(btc.addresses.find((a) => a.role === 'COLD')).toMatchObject({ address: cold, balance: '0.2' });
    const claim = { coinCode: 'BTC', ...(deposit as CoinReserves['addresses'][number]) };
    expect(await verifyControl(claim, controlMessage('BTC', m.wallet.address, btc.rootHash))).toBe(true);
    expect(await verifyControl({ ...claim, address: cold }, controlMessage('BTC', cold, btc.rootHash))).toBe(
      false,
    );
  });
});
