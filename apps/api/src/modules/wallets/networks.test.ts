import { bech32 } from 'bech32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';

// CHAIN_NETWORK decides the BTC address format of deposit addresses and of withdrawal checks: testnet tb1
// (DECISIONS §5), regtest bcrt1, the other coins as on testnet (§17).
const NETWORKS = [
  {
    network: 'testnet',
    prefix: 'tb',
    refused: ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    accepted: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  },
  {
    network: 'regtest',
    prefix: 'bcrt',
    refused: ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
    accepted: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
  },
] as const;

describe.each(NETWORKS)('wallets on $network', ({ network, prefix, refused, accepted }) => {
  let t: TestApp;
  let m: FixtureMember;

  beforeAll(async () => {
    t = await createTestApp({ CHAIN_NETWORK: network });
    m = await createMember(t);
  });
  afterAll(() => t.close());

  it(`derives ${prefix}1q deposit addresses and validates withdrawals against ${network}`, async () => {
    const r = await t.call<{ id: number; address: string }>('POST', '/api/v1/wallets/create', {
      token: m.token,
      body: { coinCode: 'BTC' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData.address.startsWith(`${prefix}1q`)).toBe(true);
    expect(bech32.decode(r.body.returnData.address).prefix).toBe(prefix);
    await fundMember(t, m.id, 'BTC', '1');
    const body = (dest: string) => ({
      fromWalletId: r.body.returnData.id,
      destType: 'EXTERNAL',
      amount: '0.1',
      destExternalAddress: dest,
      stepUp: { password: m.password },
    });
    for (const other of refused) {
      const answer = await t.call('POST', '/transfer/request', { token: m.token, body: body(other) });
      expect(answer.body.returnMessage, other).toBe('INVALID_ADDRESS');
    }
    const ours = await t.call('POST', '/transfer/request', { token: m.token, body: body(accepted) });
    expect(ours.status).toBe(200);
    await t.assertLedger();
  });
});

it('refuses an unknown CHAIN_NETWORK', () => {
  expect(() => loadConfig({ CHAIN_NETWORK: 'signet' })).toThrow(/CHAIN_NETWORK/);
  expect(loadConfig({ CHAIN_NETWORK: 'regtest' }).chain.network).toBe('regtest');
});
