import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Coin, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomXrpAddress } from '../../../test/fake-rippled.ts';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { freshDatabase } from '../../../test/infra.ts';
import { addressAt, chainKeys } from '../../chains/index.ts';
import { openDb } from '../../db/client.ts';
import { MIGRATIONS_DIR } from '../../db/migrate.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import type { WalletRow } from './service.ts';

/** XRP destination tags end to end on the API (DECISIONS §17). */

let t: TestApp;
let op: FixtureMember;
let alice: FixtureMember;
let bob: FixtureMember;
const w: Record<string, WalletRow> = {};
const OUTSIDE_XRP = randomXrpAddress();
const TAG_MAX = 4_294_967_295;

interface WalletOut {
  id: number;
  coinCode: Coin;
  address: string;
  destinationTag: number | null;
}
interface TransferOut {
  transferId: number;
  destType: string;
  status: string;
  address: string;
  amount: string;
  fee: string;
  destTag: number | null;
}

beforeAll(async () => {
  t = await createTestApp({ WITHDRAW_FEE_XRP: '0.1', STEP_UP_MAX_FAILURES: '1000' });
  op = await createMember(t, { role: 'OPERATOR' });
  alice = await createMember(t);
  bob = await createMember(t);
  for (const m of [alice, bob]) {
    const name = m === alice ? 'alice' : 'bob';
    w[`${name}XRP`] = await createWalletFor(t, m.id, 'XRP');
    w[`${name}BTC`] = await createWalletFor(t, m.id, 'BTC');
  }
  await fundMember(t, alice.id, 'XRP', '1000');
  await fundMember(t, alice.id, 'BTC', '1');
});
afterAll(() => t.close());

const platform = () => chainKeys().xrpDepositAccount;
const avail = (memberId: number, coin: Coin) => balanceOf(t.app.deps.db, account.available(memberId, coin));
const walletsOf = async (m: FixtureMember) =>
  (await t.call<WalletOut[]>('GET', '/api/v1/wallets', { token: m.token })).body.returnData;
const request = (m: FixtureMember, body: Record<string, unknown>) =>
  t.call<TransferOut>('POST', '/transfer/request', {
    token: m.token,
    body: { stepUp: { password: m.password }, ...body },
  });

describe('wallet view', () => {
  it('shows XRP wallets the platform account (0/0 of the XRP key) and a tag; other coins their address and null', async () => {
    expect(platform()).toBe(addressAt(chainKeys(), 'XRP', 0));
    const list = await walletsOf(alice);
    const xrp = list.find((x) => x.coinCode === 'XRP');
    const btc = list.find((x) => x.coinCode === 'BTC');
    expect(xrp).toMatchObject({ address: platform(), destinationTag: w.aliceXRP?.destination_tag });
    expect(xrp?.destinationTag).toBeGreaterThanOrEqual(1);
    expect(xrp?.destinationTag).toBeLessThanOrEqual(TAG_MAX);
    expect(btc).toMatchObject({ address: w.aliceBTC?.address, destinationTag: null });
    // the wallet's own derived address is never 0/0: the platform account is nobody's wallet address
    expect(w.aliceXRP?.address).not.toBe(platform());
    expect(w.aliceXRP?.derivation_index).not.toBe(0);
  });

  it('gives a created XRP wallet its tag in the create answer', async () => {
    const carol = await createMember(t);
    const r = await t.call<WalletOut>('POST', '/api/v1/wallets/create', {
      token: carol.token,
      body: { coinCode: 'XRP' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData.address).toBe(platform());
    expect(Number.isInteger(r.body.returnData.destinationTag)).toBe(true);
  });

  it('gives concurrent XRP wallet creations distinct tags', async () => {
    const members = await Promise.all(Array.from({ length: 12 }, () => createMember(t)));
    const created = await Promise.all(members.map((m) => createWalletFor(t, m.id, 'XRP')));
    const tags = created.map((c) => c.destination_tag);
    expect(new Set(tags).size).toBe(tags.length);
    const all = await t.app.deps.db
      .selectFrom('wallets')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.count<number>('destination_tag').distinct().as('tags'),
      ])
      .where('coin', '=', 'XRP')
      .executeTakeFirstOrThrow();
    expect(Number(all.tags)).toBe(Number(all.n));
  });

  it('uses XRP_DEPOSIT_ACCOUNT when it is set, and refuses one that is not an address', async () => {
    const configured = randomXrpAddress();
    const other = await createTestApp({ XRP_DEPOSIT_ACCOUNT: configured });
    try {
      const m = await createMember(other);
      await createWalletFor(other, m.id, 'XRP');
      const list = (await other.call<WalletOut[]>('GET', '/api/v1/wallets', { token: m.token })).body
        .returnData;
      expect(list[0]?.address).toBe(configured);
    } finally {
      await other.close();
    }
    await expect(createTestApp({ XRP_DEPOSIT_ACCOUNT: 'rNotAnAddress' })).rejects.toThrow(
      /XRP_DEPOSIT_ACCOUNT/,
    );
  });
});

describe('XRP withdrawals with destTag', () => {
  it('stores destTag with an external withdrawal and shows it to the member and in the operator queue', async () => {
    const r = await request(alice, {
      fromWalletId: w.aliceXRP?.id,
      destType: 'EXTERNAL',
      amount: '25',
      destExternalAddress: OUTSIDE_XRP,
      destTag: TAG_MAX,
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({
      status: 'PENDING',
      address: OUTSIDE_XRP,
      destTag: TAG_MAX,
      fee: '0.1',
    });
    const history = await t.call<{ list: TransferOut[] }>('GET', `/transfer?walletId=${w.aliceXRP?.id}`, {
      token: alice.token,
    });
    expect(history.body.returnData.list[0]).toMatchObject({
      transferId: r.body.returnData.transferId,
      destTag: TAG_MAX,
    });
    const queue = await t.call<{ list: { withdrawalId: number; destTag: number | null }[] }>(
      'GET',
      '/ops/api/v1/withdrawals',
      { token: op.token },
    );
    expect(
      queue.body.returnData.list.find((x) => x.withdrawalId === r.body.returnData.transferId)?.destTag,
    ).toBe(TAG_MAX);
  });

  it('takes a withdrawal without a tag (null) and a tag of 0', async () => {
    for (const destTag of [undefined, null, 0]) {
      const r = await request(alice, {
        fromWalletId: w.aliceXRP?.id,
        destType: 'EXTERNAL',
        amount: '1',
        destExternalAddress: OUTSIDE_XRP,
        destTag,
      });
      expect(r.status).toBe(200);
      expect(r.body.returnData.destTag).toBe(destTag ?? null);
    }
  });

  it('refuses a tag out of range or not an integer, and any tag on another coin, moving nothing', async () => {
    const before = await avail(alice.id, 'XRP');
    for (const destTag of [-1, TAG_MAX + 1, 1.5, '12', 'abc', true]) {
      const r = await request(alice, {
        fromWalletId: w.aliceXRP?.id,
        destType: 'EXTERNAL',
        amount: '1',
        destExternalAddress: OUTSIDE_XRP,
        destTag,
      });
      expect(r.status, String(destTag)).toBe(400);
      expect(r.body.returnMessage).toBe('VALIDATION_FAILED');
      expect(r.body.returnData).toMatchObject({ fields: { destTag: expect.any(String) } });
    }
    const btc = await request(alice, {
      fromWalletId: w.aliceBTC?.id,
      destType: 'EXTERNAL',
      amount: '0.1',
      destExternalAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      destTag: 5,
    });
    expect(btc.status).toBe(400);
    expect(btc.body.returnData).toEqual({ fields: { destTag: 'INVALID_FORMAT' } });
    expect(await avail(alice.id, 'XRP')).toBe(before);
    expect(await avail(alice.id, 'BTC')).toBe(toUnits('1'));
  });
});

describe('XRP to the platform account names a member by tag', () => {
  for (const destType of ['INTERNAL', 'EXTERNAL'] as const) {
    it(`${destType} to the platform account with bob's tag is an instant internal transfer`, async () => {
      const aliceBefore = await avail(alice.id, 'XRP');
      const bobBefore = await avail(bob.id, 'XRP');
      const r = await request(alice, {
        fromWalletId: w.aliceXRP?.id,
        destType,
        amount: '3',
        [destType === 'INTERNAL' ? 'destInternalAddress' : 'destExternalAddress']: platform(),
        destTag: w.bobXRP?.destination_tag,
      });
      expect(r.status).toBe(200);
      expect(r.body.returnData).toMatchObject({
        destType: 'INTERNAL',
        status: 'COMPLETED',
        address: platform(),
        destTag: w.bobXRP?.destination_tag,
        fee: '0',
      });
      expect(await avail(alice.id, 'XRP')).toBe(aliceBefore - toUnits('3'));
      expect(await avail(bob.id, 'XRP')).toBe(bobBefore + toUnits('3'));
      await t.assertLedger();
    });
  }

  it("needs the tag, refuses an unknown one and the sender's own, moving nothing", async () => {
    const before = await avail(alice.id, 'XRP');
    const base = {
      fromWalletId: w.aliceXRP?.id,
      destType: 'INTERNAL',
      amount: '1',
      destInternalAddress: platform(),
    };
    const none = await request(alice, base);
    expect(none.status).toBe(400);
    expect(none.body.returnData).toEqual({ fields: { destTag: 'REQUIRED' } });
    const used = new Set([w.aliceXRP?.destination_tag, w.bobXRP?.destination_tag]);
    const rows = await t.app.deps.db
      .selectFrom('wallets')
      .select('destination_tag')
      .where('coin', '=', 'XRP')
      .execute();
    for (const row of rows) used.add(row.destination_tag);
    let unknown = 1;
    while (used.has(unknown)) unknown++;
    const stranger = await request(alice, { ...base, destTag: unknown });
    expect(stranger.status).toBe(404);
    expect(stranger.body.returnMessage).toBe('WALLET_NOT_FOUND');
    const self = await request(alice, { ...base, destTag: w.aliceXRP?.destination_tag });
    expect(self.status).toBe(422);
    expect(self.body.returnMessage).toBe('SELF_TRANSFER');
    expect(await avail(alice.id, 'XRP')).toBe(before);
  });
});

describe('operator credit of an XRP deposit to the platform account', () => {
  it('credits the wallet of the tag and needs one', async () => {
    const before = await avail(bob.id, 'XRP');
    const body = { coinCode: 'XRP', address: platform(), amount: '12.5', txid: 'AB'.repeat(32), index: 0 };
    const untagged = await t.call('POST', '/ops/api/v1/deposits', { token: op.token, body });
    expect(untagged.status).toBe(400);
    expect(untagged.body.returnData).toEqual({ fields: { destinationTag: 'REQUIRED' } });
    const r = await t.call<{ walletId: number; address: string }>('POST', '/ops/api/v1/deposits', {
      token: op.token,
      body: { ...body, destinationTag: w.bobXRP?.destination_tag },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({ walletId: w.bobXRP?.id, address: platform() });
    expect(await avail(bob.id, 'XRP')).toBe(before + toUnits('12.5'));
  });
});

describe('017_xrp_destination_tags on a database with wallets', () => {
  it('gives every existing XRP wallet a unique tag in 1..2^32-1 and other coins none', async () => {
    const fresh = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, 'mig') : null;
    const h = await openDb({
      databaseUrl: fresh?.url,
      dataDir: join(tmpdir(), 'xrp-tags-migration'),
      inMemory: !fresh,
    });
    try {
      const files = readdirSync(MIGRATIONS_DIR)
        .filter((f) => f.endsWith('.sql'))
        .sort();
      const before = files.filter((f) => f < '017_xrp_destination_tags.sql');
      const script = (f: string) => readFileSync(join(MIGRATIONS_DIR, f), 'utf8');
      await h.db.transaction().execute(async (tx) => {
        for (const f of before) await h.execScript(tx, script(f));
      });
      const count = 40;
      await sql`insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
        select 'm' || g, 'n' || g, 'N', '82', '+82100000' || lpad(g::text, 4, '0'), 'x'
        from generate_series(1, ${count}) g`.execute(h.db);
      await sql`insert into wallets (member_id, coin, address, derivation_index)
        select id, c.coin, c.coin || id, id from members, (values ('XRP'), ('BTC')) c(coin)`.execute(h.db);
      await h.db.transaction().execute((tx) => h.execScript(tx, script('017_xrp_destination_tags.sql')));
      const rows = await sql<{ coin: string; destination_tag: string | number | null }>`
        select coin, destination_tag from wallets`.execute(h.db);
      const xrp = rows.rows.filter((r) => r.coin === 'XRP').map((r) => Number(r.destination_tag));
      expect(xrp).toHaveLength(count);
      expect(new Set(xrp).size).toBe(count);
      for (const tag of xrp) {
        expect(Number.isInteger(tag)).toBe(true);
        expect(tag).toBeGreaterThanOrEqual(1);
        expect(tag).toBeLessThanOrEqual(TAG_MAX);
      }
      expect(rows.rows.filter((r) => r.coin === 'BTC').every((r) => r.destination_tag === null)).toBe(true);
      // random, not 1, 2, 3...: no run of consecutive tags
      const sorted = [...xrp].sort((a, b) => a - b);
      expect(sorted.some((v, i) => i > 0 && v === (sorted[i - 1] ?? 0) + 1)).toBe(false);
      // an XRP wallet without a tag, or another coin's with one, cannot be written afterwards
      await expect(
        sql`update wallets set destination_tag = null where coin = 'XRP'`.execute(h.db),
      ).rejects.toThrow();
      await expect(
        sql`update wallets set destination_tag = 7 where coin = 'BTC'`.execute(h.db),
      ).rejects.toThrow();
    } finally {
      await h.close();
      await fresh?.drop();
    }
  });
});
