import { COINS } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { isValidAddress } from '../../chains/index.ts';

let t: TestApp;
let alice: FixtureMember;
let bob: FixtureMember;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createMember(t);
  bob = await createMember(t);
});
afterAll(() => t.close());

interface WalletOut {
  id: number;
  coinCode: string;
  balance: string;
  escrowBalance: string;
  address: string;
  status: string;
  createdAt: string;
}

describe('wallets', () => {
  it('creates one wallet per coin with a valid derived deposit address, and lists them', async () => {
    for (const coin of COINS) {
      const r = await t.call<WalletOut>('POST', '/api/v1/wallets/create', {
        token: alice.token,
        body: { coinCode: coin },
      });
      expect(r.status).toBe(200);
      expect(r.body.returnData).toMatchObject({
        coinCode: coin,
        balance: '0',
        escrowBalance: '0',
        status: 'ACTIVE',
      });
      expect(isValidAddress(coin, r.body.returnData.address, 'mainnet')).toBe(true);
    }
    const list = await t.call<WalletOut[]>('GET', '/api/v1/wallets', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.returnData.map((w) => w.coinCode)).toEqual([...COINS]);
    const mine = await t.call<WalletOut[]>('GET', '/api/v1/wallets', { token: bob.token });
    expect(mine.body.returnData).toEqual([]);
    await t.assertLedger();
  });

  it('refuses a second wallet of a coin with 409 WALLET_EXISTS', async () => {
    const r = await t.call('POST', '/api/v1/wallets/create', {
      token: alice.token,
      body: { coinCode: 'BTC' },
    });
    expect(r.status).toBe(409);
    expect(r.body.returnMessage).toBe('WALLET_EXISTS');
    const list = await t.call<WalletOut[]>('GET', '/api/v1/wallets', { token: alice.token });
    expect(list.body.returnData.length).toBe(4);
  });

  it('gives different members different addresses and refuses bad input', async () => {
    const b = await t.call<WalletOut>('POST', '/api/v1/wallets/create', {
      token: bob.token,
      body: { coinCode: 'ETH' },
    });
    const a = (await t.call<WalletOut[]>('GET', '/api/v1/wallets', { token: alice.token })).body.returnData;
    expect(a.find((w) => w.coinCode === 'ETH')?.address).not.toBe(b.body.returnData.address);
    const bad = await t.call('POST', '/api/v1/wallets/create', {
      token: bob.token,
      body: { coinCode: 'DOGE' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.returnMessage).toBe('VALIDATION_FAILED');
    const anon = await t.call('GET', '/api/v1/wallets');
    expect(anon.status).toBe(401);
  });

  it.runIf(onPostgres)('concurrent creations: one wallet per member and coin, distinct indexes', async () => {
    const members = await Promise.all(Array.from({ length: 8 }, () => createMember(t)));
    const calls = members.flatMap((m) =>
      [0, 1, 2].map(() =>
        t.call<WalletOut>('POST', '/api/v1/wallets/create', { token: m.token, body: { coinCode: 'TRX' } }),
      ),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.status === 200).length).toBe(8);
    expect(results.filter((r) => r.status === 409).length).toBe(16);
    const addresses = new Set(results.filter((r) => r.status === 200).map((r) => r.body.returnData.address));
    expect(addresses.size).toBe(8);
  });
});
