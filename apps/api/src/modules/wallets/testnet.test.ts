import { bech32 } from 'bech32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

// CHAIN_NETWORK=testnet: deposit addresses and withdrawal checks use the testnet formats (DECISIONS §5).
let t: TestApp;
let m: FixtureMember;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_NETWORK: 'testnet' });
  m = await createMember(t);
});
afterAll(() => t.close());

describe('wallets on testnet', () => {
  it('derives tb1q deposit addresses and validates withdrawals against testnet', async () => {
    const r = await t.call<{ id: number; address: string }>('POST', '/api/v1/wallets/create', {
      token: m.token,
      body: { coinCode: 'BTC' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData.address).toMatch(/^tb1q/);
    expect(bech32.decode(r.body.returnData.address).prefix).toBe('tb');
    await fundMember(t, m.id, 'BTC', '1');
    const body = (dest: string) => ({
      fromWalletId: r.body.returnData.id,
      destType: 'EXTERNAL',
      amount: '0.1',
      destExternalAddress: dest,
      stepUp: { password: m.password },
    });
    const mainnet = await t.call('POST', '/transfer/request', {
      token: m.token,
      body: body('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'),
    });
    expect(mainnet.body.returnMessage).toBe('INVALID_ADDRESS');
    const testnet = await t.call('POST', '/transfer/request', {
      token: m.token,
      body: body('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'),
    });
    expect(testnet.status).toBe(200);
    await t.assertLedger();
  });
});
