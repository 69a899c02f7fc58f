import { fromUnits, type OpsCustodyCoin, type Transfer, type Wallet } from '@p2p/contract';
import { type Address, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { type Anvil, startAnvil } from '../../../test/nodes.ts';
import { startSigner, type TestSigner } from '../../../test/signer.ts';
import { coldShareBreached, coldSharePct } from './custody.ts';

/*
 * GET /ops/api/v1/chain/custody (DECISIONS §18) on a real Ethereum node (Anvil) with the real signer process:
 * a member's 3 ETH deposit is credited and swept to the hot address; the custody view then shows the hot
 * address and its balance as the chain says, what the ledger says the platform holds, the cold address's
 * balance, members' liabilities, the cold share against COLD_SHARE_MIN_PCT (a breach at 66.66 %, none at 100 %)
 * and the withdrawals waiting per state with their totals. Operators only.
 */

let anvil: Anvil;
let signer: TestSigner;
let t: TestApp;
let member: FixtureMember;
let op: FixtureMember;
let wallet: Wallet;
const cold = privateKeyToAccount(generatePrivateKey()).address;

const weiToCoin = (wei: bigint) => fromUnits(wei / 10_000_000_000n);

async function custodyOf(coin: string): Promise<OpsCustodyCoin> {
  const r = await t.call<OpsCustodyCoin[]>('GET', '/ops/api/v1/chain/custody', { token: op.token });
  expect(r.status).toBe(200);
  const row = r.body.returnData.find((c) => c.coinCode === coin);
  if (!row) throw new Error(`no ${coin} row`);
  return row;
}

async function pass(): Promise<void> {
  const r = await t.app.payouts.workers.get('ETH')?.pass();
  expect(r?.error).toBeUndefined();
}

async function withdraw(amount: string) {
  const r = await t.call<Transfer>('POST', '/transfer/request', {
    token: member.token,
    body: {
      fromWalletId: wallet.id,
      destType: 'EXTERNAL',
      destExternalAddress: privateKeyToAccount(generatePrivateKey()).address,
      amount,
      stepUp: { password: member.password },
    },
  });
  expect(r.status).toBe(200);
  return r.body.returnData;
}

beforeAll(async () => {
  [anvil, signer] = await Promise.all([startAnvil(), startSigner({ env: { CHAIN_NETWORK: 'testnet' } })]);
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_ETH: anvil.url,
      CHAIN_CONFIRMATIONS_ETH: '1',
      CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
      WITHDRAW_AUTO_MAX_ETH: '0.5',
      COLD_ADDRESS_ETH: cold,
      COLD_SHARE_MIN_PCT: '80',
    },
    { startPayouts: false, startWatchers: false },
  );
  member = await createMember(t);
  op = await createMember(t, { role: 'OPERATOR' });
  const created = await t.call<Wallet>('POST', '/api/v1/wallets/create', {
    token: member.token,
    body: { coinCode: 'ETH' },
  });
  wallet = created.body.returnData;
  await anvil.pay(wallet.address as Address, parseEther('3'));
  const scan = await t.app.depositWatchers.watchers.get('ETH')?.scan();
  expect(scan?.error).toBeUndefined();
  await pass();
  await pass();
}, 180_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([anvil?.stop(), signer?.stop()]);
});

describe('GET /ops/api/v1/chain/custody', () => {
  it('shows the hot balance as the chain and the ledger say, the liabilities and no cold coins (a breach)', async () => {
    const eth = await custodyOf('ETH');
    const hot = t.app.payouts.payouts.get('ETH')?.hotAddress as Address;
    expect(eth.paidOnChain).toBe(true);
    expect(eth.hotAddresses).toEqual([hot]);
    expect(eth.hotBalance).toBe(weiToCoin(await anvil.client.getBalance({ address: hot })));
    // The sweep's network fee left the ledger's holdings with the chain: below the 3 ETH deposited.
    const leftAtDeposit = await anvil.client.getBalance({ address: wallet.address as Address });
    expect(eth.ledgerHoldings).toBe(
      weiToCoin(leftAtDeposit + (await anvil.client.getBalance({ address: hot }))),
    );
    expect(eth.coldAddress).toBe(cold);
    expect(eth.coldBalance).toBe('0');
    expect(eth.liabilities).toBe('3');
    expect(eth.coldSharePct).toBe('0.00');
    expect(eth.coldShareMinPct).toBe(80);
    expect(eth.coldShareBreach).toBe(true);
    expect(eth.lastError).toBeNull();
  });

  it('counts the withdrawals waiting per state and reads the cold share from the chain', async () => {
    const small = await withdraw('0.1');
    const large = await withdraw('0.55');
    await t.app.payouts.workers.get('ETH')?.pass();
    await anvil.pay(cold, parseEther('2'));
    let eth = await custodyOf('ETH');
    expect(eth.withdrawals.pending).toEqual({ count: 1, total: '0.55' });
    // The small one approved itself and was sent in the pass; not yet confirmed in a later one.
    const sentOrApproved = eth.withdrawals.broadcast.count + eth.withdrawals.approved.count;
    expect(sentOrApproved).toBe(1);
    expect(eth.withdrawals.failed).toEqual({ count: 0, total: '0' });
    // Liabilities keep the withdrawals not yet paid: still 3 ETH, 2 of them cold.
    expect(eth.liabilities).toBe('3');
    expect(eth.coldBalance).toBe('2');
    expect(eth.coldSharePct).toBe('66.66');
    expect(eth.coldShareBreach).toBe(true);
    await anvil.pay(cold, parseEther('1'));
    eth = await custodyOf('ETH');
    expect(eth.coldSharePct).toBe('100.00');
    expect(eth.coldShareBreach).toBe(false);
    expect([small.status, large.status]).toEqual(['PENDING', 'PENDING']);
  });

  it('a coin without a node: no hot address or balance, nothing owed, no breach', async () => {
    const btc = await custodyOf('BTC');
    expect(btc).toMatchObject({
      paidOnChain: false,
      hotAddresses: [],
      hotBalance: null,
      coldAddress: null,
      coldBalance: '0',
      liabilities: '0',
      coldSharePct: null,
      coldShareBreach: false,
    });
  });

  it('answers operators only', async () => {
    expect((await t.call('GET', '/ops/api/v1/chain/custody', { token: member.token })).status).toBe(403);
    expect((await t.call('GET', '/ops/api/v1/chain/custody')).status).toBe(401);
  });
});

describe('cold share arithmetic', () => {
  it('is integer percent with two decimals, rounded down, and a breach below the minimum', () => {
    expect(coldSharePct(2n, 3n)).toBe('66.66');
    expect(coldSharePct(0n, 5n)).toBe('0.00');
    expect(coldSharePct(5n, 0n)).toBeNull();
    expect(coldSharePct(null, 5n)).toBeNull();
    expect(coldShareBreached(79n, 100n, 80)).toBe(true);
    expect(coldShareBreached(80n, 100n, 80)).toBe(false);
    expect(coldShareBreached(null, 100n, 80)).toBe(true);
    expect(coldShareBreached(null, 0n, 80)).toBe(false);
  });
});
