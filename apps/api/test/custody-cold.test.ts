import type { OpsCustodyCoin } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRippled, randomXrpAddress, startFakeRippled } from './fake-rippled.ts';
import { type FakeTron, randomTronAddress, startFakeTron } from './fake-tron.ts';
import { createMember, type FixtureMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/*
 * The console's custody panel (GET /ops/api/v1/chain/custody, DECISIONS §18) reads XRP's and TRX's cold
 * addresses on their nodes (the fake rippled's account_info on the validated ledger, the fake java-tron's
 * /wallet/getaccount) through the coins' payouts: a funded cold address shows its balance, an address the
 * ledger never saw is 0, a node that does not answer leaves the figure null with its error.
 */

let rippled: FakeRippled;
let tron: FakeTron;
let t: TestApp;
let op: FixtureMember;
const coldXrp = randomXrpAddress();
const coldTrx = randomTronAddress();

async function custodyOf(coin: string): Promise<OpsCustodyCoin> {
  const r = await t.call<OpsCustodyCoin[]>('GET', '/ops/api/v1/chain/custody', { token: op.token });
  expect(r.status).toBe(200);
  const row = r.body.returnData.find((c) => c.coinCode === coin);
  if (!row) throw new Error(`no ${coin} row`);
  return row;
}

beforeAll(async () => {
  [rippled, tron] = await Promise.all([startFakeRippled(), startFakeTron()]);
  t = await createTestApp(
    {
      CHAIN_RPC_XRP: rippled.url,
      CHAIN_RPC_TRX: tron.url,
      COLD_ADDRESS_XRP: coldXrp,
      COLD_ADDRESS_TRX: coldTrx,
    },
    { payoutSigner: null, startPayouts: false, startWatchers: false },
  );
  op = await createMember(t, { role: 'OPERATOR' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rippled?.close();
  await tron?.close();
});

describe('cold balances of XRP and TRX in the custody panel', () => {
  it('is 0 for cold addresses the chains never saw', async () => {
    expect(await custodyOf('XRP')).toMatchObject({ coldAddress: coldXrp, coldBalance: '0', lastError: null });
    expect(await custodyOf('TRX')).toMatchObject({ coldAddress: coldTrx, coldBalance: '0', lastError: null });
  });

  it('shows what the nodes say the cold addresses hold', async () => {
    rippled.fund(coldXrp, 1_234_567_891n);
    rippled.addLedger();
    tron.balances.set(coldTrx, 98_765_432_100n);
    expect(await custodyOf('XRP')).toMatchObject({ coldBalance: '1234.567891', lastError: null });
    expect(await custodyOf('TRX')).toMatchObject({ coldBalance: '98765.4321', lastError: null });
  });

  it('a node that fails leaves the cold balance null with the error', async () => {
    rippled.mode = 'http500';
    try {
      const xrp = await custodyOf('XRP');
      expect(xrp.coldBalance).toBeNull();
      expect(xrp.lastError).toBeTruthy();
    } finally {
      rippled.mode = 'ok';
    }
  });
});
