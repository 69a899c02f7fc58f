import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoinReserves, fromUnits, type ReserveProofView, toUnits } from '@p2p/contract';
import { verifyProof } from '@p2p/reserves';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { openListing, operator, type Trader, trader } from '../orders/test-kit.ts';

/**
 * Proof of reserves over real HTTP (DECISIONS §20): a snapshot's root sum is the ledger's liabilities, every
 * member's proof verifies with the package alone and with the standalone command, and nothing is shown to whom it
 * does not belong.
 */
const EXTERNAL_ETH = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BIN = join(import.meta.dirname, '../../../../../packages/reserves/bin/p2p-verify-reserves.mjs');

let t: TestApp;
let op: { token: string };
let members: Trader[];

async function liabilitiesFromLedger(coin: string): Promise<bigint> {
  const rows = await t.app.deps.db
    .selectFrom('ledger_accounts')
    .select(['balance', 'member_id', 'kind'])
    .where('coin', '=', coin as 'BTC')
    .execute();
  return rows
    .filter((r) => r.member_id !== null || r.kind === 'withdrawal_pending')
    .reduce((a, r) => a + toUnits(r.balance), 0n);
}

beforeAll(async () => {
  t = await createTestApp({ RESERVES_SNAPSHOT_HOURS: '0' });
  op = await operator(t);
  members = await Promise.all([
    trader(t, 'BTC', '1.5', 'Kim Minsu'),
    trader(t, 'BTC', '0.00000001', 'Lee Jisoo'),
    trader(t, 'BTC', '2', 'Park Hana'),
    trader(t, 'ETH', '5', 'Choi Yuna'),
  ]);
  // escrow: a listing holds 1 BTC of the third member; a pending withdrawal: the fourth's 1 ETH
  await openListing(t, members[2] as Trader, op as never, {
    minQty: '0.01',
    maxQty: '1',
    unitPriceKrw: 50_000_000,
  });
  const m = members[3] as Trader;
  const w = await t.call('POST', '/transfer/request', {
    token: m.token,
    body: {
      fromWalletId: m.wallet.id,
      destType: 'EXTERNAL',
      amount: '1',
      destExternalAddress: EXTERNAL_ETH,
      stepUp: { password: m.password },
    },
  });
  expect(w.status).toBe(200);
}, 180_000);
afterAll(() => t?.close());

describe('proof of reserves', () => {
  it('refuses members and strangers the operator call, and has nothing to prove before a snapshot', async () => {
    const m = members[0] as Trader;
    expect((await t.call('POST', '/ops/api/v1/reserves/snapshot', { token: m.token, body: {} })).status).toBe(
      403,
    );
    expect((await t.call('GET', '/api/v1/reserves/proof?coinCode=BTC')).status).toBe(401);
    const none = await t.call('GET', '/api/v1/reserves/proof?coinCode=BTC', { token: m.token });
    expect(none.status).toBe(404);
    expect((await t.call('GET', '/api/v1/reserves')).body.returnData).toEqual([]);
  });

  it("takes a snapshot whose root sum is the ledger's liabilities, escrow and pending withdrawals included", async () => {
    await t.call('POST', '/ops/api/v1/reserves/declare', {
      token: op.token,
      body: { coinCode: 'BTC', amount: '4' },
    });
    const r = await t.call<CoinReserves[]>('POST', '/ops/api/v1/reserves/snapshot', {
      token: op.token,
      body: {},
    });
    expect(r.status).toBe(200);
    const pub = await t.call<CoinReserves[]>('GET', '/api/v1/reserves');
    const btc = pub.body.returnData.find((c) => c.coinCode === 'BTC');
    const eth = pub.body.returnData.find((c) => c.coinCode === 'ETH');
    expect(btc?.liabilities).toBe(fromUnits(await liabilitiesFromLedger('BTC')));
    expect(btc?.liabilities).toBe('3.50000001');
    expect(btc).toMatchObject({
      reserves: '4',
      reservesSource: 'DECLARED',
      ratioPct: '114.28',
      memberCount: 3,
    });
    // the ETH member's 1 ETH waits in withdrawal_pending and still counts as theirs (the fee went to the platform)
    expect(toUnits(eth?.liabilities ?? '0')).toBe(await liabilitiesFromLedger('ETH'));
    expect(eth).toMatchObject({ reserves: null, reservesSource: 'NONE', ratioPct: null, memberCount: 1 });
  });

  it("answers each member's own proof, which verifies with the package alone and sums to the root", async () => {
    const pub = (await t.call<CoinReserves[]>('GET', '/api/v1/reserves')).body.returnData;
    for (const [m, coin, balance] of [
      [members[0], 'BTC', '1.5'],
      [members[1], 'BTC', '0.00000001'],
      [members[2], 'BTC', '2'],
      [members[3], 'ETH', '1'],
    ] as const) {
      if (!m) throw new Error('no member');
      const r = await t.call<ReserveProofView>(
        'GET',
        `/api/v1/reserves/proof?coinCode=${coin.toLowerCase()}`,
        {
          token: m.token,
        },
      );
      expect(r.status).toBe(200);
      const proof = r.body.returnData;
      expect(proof.leaf.balance).toBe(toUnits(balance).toString() === '0' ? '0' : proof.leaf.balance);
      expect(verifyProof(proof)).toMatchObject({ ok: true });
      const snap = pub.find((c) => c.coinCode === coin);
      expect(proof.rootHash).toBe(snap?.rootHash);
      expect(fromUnits(BigInt(proof.rootSum))).toBe(snap?.liabilities);
    }
    // the ETH member's leaf: 5 funded - 1 withdrawn - fee + 1 pending = what the ledger says they are owed
    const ethProof = await t.call<ReserveProofView>('GET', '/api/v1/reserves/proof?coinCode=ETH', {
      token: (members[3] as Trader).token,
    });
    expect(BigInt(ethProof.body.returnData.leaf.balance)).toBe(await liabilitiesFromLedger('ETH'));
    // a member with nothing in BTC has no leaf to show, and learns nothing about anyone else's
    const other = await t.call('GET', '/api/v1/reserves/proof?coinCode=BTC', {
      token: (members[3] as Trader).token,
    });
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toMatch(/salt|index/);
  });

  it('two snapshots at once are both complete; the newest is the one proofs use', async () => {
    const [a, b] = await Promise.all([
      t.call('POST', '/ops/api/v1/reserves/snapshot', { token: op.token, body: { coinCode: 'BTC' } }),
      t.call('POST', '/ops/api/v1/reserves/snapshot', { token: op.token, body: { coinCode: 'BTC' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const count = await t.app.deps.db
      .selectFrom('reserve_snapshots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('coin', '=', 'BTC')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
    const r = await t.call<ReserveProofView>('GET', '/api/v1/reserves/proof?coinCode=BTC', {
      token: (members[0] as Trader).token,
    });
    expect(verifyProof(r.body.returnData).ok).toBe(true);
    const pub = (await t.call<CoinReserves[]>('GET', '/api/v1/reserves')).body.returnData;
    expect(r.body.returnData.rootHash).toBe(pub.find((c) => c.coinCode === 'BTC')?.rootHash);
  });

  it('the standalone command verifies a proof downloaded from the running server, and fails once a number changes', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${url}/api/v1/reserves/proof?coinCode=BTC`, {
      headers: { authorization: `Bearer ${(members[2] as Trader).token}` },
    });
    const proof = ((await res.json()) as { returnData: ReserveProofView }).returnData;
    const dir = mkdtempSync(join(tmpdir(), 'proof-'));
    const file = join(dir, 'proof.json');
    writeFileSync(file, JSON.stringify(proof, null, 2));
    const good = spawnSync(process.execPath, [BIN, file], { encoding: 'utf8' });
    expect(good.stdout).toMatch(/VERIFIED/);
    expect(good.status).toBe(0);
    writeFileSync(file, JSON.stringify({ ...proof, rootSum: (BigInt(proof.rootSum) - 1n).toString() }));
    const bad = spawnSync(process.execPath, [BIN, file], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
  });

  it('encodes sums beyond 2^63 base units exactly (16-byte sums): the proof still verifies', async () => {
    // 99,999,999,999 XRP = 9,999,999,999,900,000,000 base units, past a signed 64-bit integer
    const whale = await trader(t, 'XRP', '99999999999', 'Han Jiwoo');
    await trader(t, 'XRP', '0.5', 'Yoon Seri');
    await t.call('POST', '/ops/api/v1/reserves/snapshot', { token: op.token, body: { coinCode: 'XRP' } });
    const r = await t.call<ReserveProofView>('GET', '/api/v1/reserves/proof?coinCode=XRP', {
      token: whale.token,
    });
    expect(r.body.returnData.leaf.balance).toBe('9999999999900000000');
    expect(r.body.returnData.rootSum).toBe('9999999999950000000');
    expect(verifyProof(r.body.returnData)).toMatchObject({ ok: true });
  });

  it('refuses a bad coin code and a bad declaration with the envelope, writing nothing', async () => {
    const m = members[0] as Trader;
    expect((await t.call('GET', '/api/v1/reserves/proof?coinCode=DOGE', { token: m.token })).status).toBe(
      400,
    );
    const bad = await t.call('POST', '/ops/api/v1/reserves/declare', {
      token: op.token,
      body: { coinCode: 'BTC', amount: '1.123456789' },
    });
    expect(bad.status).toBe(400);
    const row = await t.app.deps.db
      .selectFrom('reserve_declarations')
      .selectAll()
      .where('coin', '=', 'BTC')
      .executeTakeFirst();
    expect(toUnits(row?.amount ?? '0')).toBe(toUnits('4'));
  });
});
