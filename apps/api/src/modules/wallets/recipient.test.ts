import { maskName } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { chainKeys } from '../../chains/index.ts';
import { RECIPIENT_LOOKUPS_PER_HOUR } from './recipient.ts';
import type { WalletRow } from './service.ts';

let t: TestApp;
let alice: FixtureMember;
let bob: FixtureMember;
let carol: FixtureMember;
const w: Record<string, WalletRow> = {};
// A valid mainnet segwit address that is nobody's wallet (BIP-173 vector).
const NOBODY_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob, carol] = [await createMember(t), await createMember(t), await createMember(t)];
  for (const [name, m] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    w[`${name}BTC`] = await createWalletFor(t, m.id, 'BTC');
    w[`${name}ETH`] = await createWalletFor(t, m.id, 'ETH');
    w[`${name}XRP`] = await createWalletFor(t, m.id, 'XRP');
  }
});
afterAll(() => t.close());

const lookup = (m: FixtureMember, query: string) =>
  t.call<{ nickname: string }>('GET', `/api/v1/transfer/recipient?${query}`, { token: m.token });
const q = (o: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();

describe('GET /api/v1/transfer/recipient: who a 내부 지갑 transfer reaches', () => {
  it('names the receiving member by the masked nickname, any spelling of the address; never the login id or name', async () => {
    const r = await lookup(alice, q({ coinCode: 'ETH', address: w.bobETH!.address.toLowerCase() }));
    expect(r.status).toBe(200);
    expect(r.body.returnData).toEqual({ nickname: maskName(bob.nickname) });
    expect(r.body.returnData.nickname).not.toBe(bob.nickname);
    expect(r.body.returnData.nickname[0]).toBe(bob.nickname[0]);
    expect(JSON.stringify(r.body)).not.toContain(bob.loginId);
    expect(JSON.stringify(r.body)).not.toContain(bob.name);
  });

  it('XRP: the platform account names the member by the destination tag, which it then needs', async () => {
    const platform = chainKeys().xrpDepositAccount;
    const named = await lookup(
      alice,
      q({ coinCode: 'XRP', address: platform, destTag: w.bobXRP!.destination_tag! }),
    );
    expect(named.status).toBe(200);
    expect(named.body.returnData.nickname).toBe(maskName(bob.nickname));
    const untagged = await lookup(alice, q({ coinCode: 'XRP', address: platform }));
    expect(untagged.status).toBe(400);
    expect(untagged.body.returnData).toMatchObject({ fields: { destTag: 'REQUIRED' } });
    const own = await lookup(
      alice,
      q({ coinCode: 'XRP', address: platform, destTag: w.aliceXRP!.destination_tag! }),
    );
    expect(own.body.returnMessage).toBe('SELF_TRANSFER');
  });

  it('no member there is 404 WALLET_NOT_FOUND; another coin, the own wallet and bad input are refused', async () => {
    const nobody = await lookup(alice, q({ coinCode: 'BTC', address: NOBODY_BTC }));
    expect([nobody.status, nobody.body.returnMessage]).toEqual([404, 'WALLET_NOT_FOUND']);
    // Bob's BTC address asked as ETH: his wallets are per coin
    const otherCoin = await lookup(alice, q({ coinCode: 'ETH', address: w.bobBTC!.address }));
    expect(otherCoin.body.returnMessage).toBe('WALLET_NOT_FOUND');
    const own = await lookup(alice, q({ coinCode: 'BTC', address: w.aliceBTC!.address }));
    expect([own.status, own.body.returnMessage]).toEqual([422, 'SELF_TRANSFER']);
    for (const bad of [
      q({ coinCode: 'DOGE', address: NOBODY_BTC }),
      q({ coinCode: 'BTC' }),
      `coinCode=BTC&address=${'a'.repeat(200)}`,
    ]) {
      const r = await lookup(alice, bad);
      expect([r.status, r.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const anonymous = await t.call(
      'GET',
      `/api/v1/transfer/recipient?${q({ coinCode: 'BTC', address: NOBODY_BTC })}`,
    );
    expect(anonymous.status).toBe(401);
  });

  it(`refuses a member's lookups beyond ${RECIPIENT_LOOKUPS_PER_HOUR} an hour with 429, other members unaffected`, async () => {
    const ask = () => lookup(carol, q({ coinCode: 'BTC', address: w.bobBTC!.address }));
    const answers = await Promise.all(Array.from({ length: RECIPIENT_LOOKUPS_PER_HOUR + 5 }, ask));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(RECIPIENT_LOOKUPS_PER_HOUR);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body.returnMessage).toBe('RATE_LIMITED');
    expect((await lookup(bob, q({ coinCode: 'BTC', address: w.aliceBTC!.address }))).status).toBe(200);
  });
});
