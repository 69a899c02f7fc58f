import { bech32 } from 'bech32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';

// CHAIN_NETWORK=regtest: BTC addresses are bcrt1..., the other coins as on testnet (DECISIONS §17).
let t: TestApp;
let m: FixtureMember;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_NETWORK: 'regtest' });
  m = await createMember(t);
});
afterAll(() => t.close());

describe('wallets on regtest', () => {
  it('derives bcrt1q deposit addresses and validates withdrawals against regtest', async () => {
    const r = await t.call<{ id: number; address: string }>('POST', '/api/v1/wallets/create', {
      token: m.token,
      body: { coinCode: 'BTC' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData.address).toMatch(/^bcrt1q/);
    expect(bech32.decode(r.body.returnData.address).prefix).toBe('bcrt');
    await fundMember(t, m.id, 'BTC', '1');
    const body = (dest: string) => ({
      fromWalletId: r.body.returnData.id,
      destType: 'EXTERNAL',
      amount: '0.1',
      destExternalAddress: dest,
      stepUp: { password: m.password },
    });
    for (const other of [
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
    ]) {
      const refused = await t.call('POST', '/transfer/request', { token: m.token, body: body(other) });
      expect(refused.body.returnMessage, other).toBe('INVALID_ADDRESS');
    }
    const regtest = await t.call('POST', '/transfer/request', {
      token: m.token,
      body: body('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'),
    });
    expect(regtest.status).toBe(200);
    await t.assertLedger();
  });

  it('refuses an unknown CHAIN_NETWORK', () => {
    expect(() => loadConfig({ CHAIN_NETWORK: 'signet' })).toThrow(/CHAIN_NETWORK/);
    expect(loadConfig({ CHAIN_NETWORK: 'regtest' }).chain.network).toBe('regtest');
  });
});
