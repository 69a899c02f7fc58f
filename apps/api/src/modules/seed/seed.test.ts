import { Writable } from 'node:stream';
import { COINS, type TradeListing, type Wallet } from '@p2p/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, runLedgerCheck } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { shouldSeedDemo } from '../../startup.ts';
import { DEMO_MEMBERS } from './demo-data.ts';
import { seedDemo } from './seed.ts';

type Page<T> = { list: T[]; nextCursor: string | null; totalCount: number };

function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const login = async (t: TestApp, loginId: string, password: string) => {
  const r = await t.call<{ accessToken: string }>('POST', '/api/v1/auth/login', {
    body: { loginId, password },
  });
  expect(r.status, `${loginId}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.returnData.accessToken;
};

describe('demo seed (SEED_DEMO=1)', () => {
  let t: TestApp;
  let opPassword: string;
  const captured = capturingLogger();

  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: '1' }, { skipStartupTasks: true });
    const r = await seedDemo(t.app.deps, captured.log);
    if (!r?.operator.password) throw new Error('the seed should have generated an operator password');
    opPassword = r.operator.password;
  });
  afterAll(() => t.close());

  it('opens listings in all four coins at realistic prices, in the public trade list', async () => {
    for (const coin of COINS) {
      const r = await t.call<Page<TradeListing>>('GET', `/api/v1/sell-listings?coin=${coin}`);
      expect(r.status).toBe(200);
      expect(r.body.returnData.list.length, coin).toBeGreaterThanOrEqual(2);
      const expected = DEMO_MEMBERS.flatMap((m) => m.listings).filter((l) => l.coin === coin);
      expect(r.body.returnData.list.map((l) => l.unitPriceKrw).sort()).toEqual(
        expected.map((l) => l.unitPriceKrw).sort(),
      );
    }
    const btc = await t.call<Page<TradeListing>>('GET', '/api/v1/sell-listings?coin=BTC&sort=PRICE_DESC');
    const top = btc.body.returnData.list[0];
    expect(top?.unitPriceKrw).toBeGreaterThan(100_000_000);
    expect(top?.unitPriceKrw).toBeLessThan(200_000_000);
    const best = await t.call<TradeListing[]>('GET', '/api/v1/sell-listings/best');
    expect(best.status).toBe(200);
    expect(best.body.returnData.length).toBeGreaterThan(0);
    const statuses = await t.app.deps.db.selectFrom('sell_listings').select('status').execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['OPEN']));
  });

  it('funds the seller through the deposit path and leaves a clean ledger', async () => {
    await t.assertLedger();
    const deposits = await t.app.deps.db
      .selectFrom('transfers')
      .select(['coin', 'type', 'dest_type', 'status'])
      .where('type', '=', 'DEPOSIT')
      .execute();
    expect(deposits.length).toBe(DEMO_MEMBERS.flatMap((m) => m.listings).length);
    const token = await login(t, 'demoseller', 'seller1234!');
    const wallets = await t.call<Wallet[]>('GET', '/api/v1/wallets', { token });
    const byCoin = Object.fromEntries(wallets.body.returnData.map((w) => [w.coinCode, w]));
    expect(byCoin.BTC).toMatchObject({ balance: '0.7', escrowBalance: '0.5' });
    expect(byCoin.TRX).toMatchObject({ balance: '300000', escrowBalance: '200000' });
    expect(Object.keys(byCoin).sort()).toEqual(['BTC', 'ETH', 'TRX', 'XRP']);
  });

  it('the demo buyer and the operator can sign in; the operator sees a clean ledger check', async () => {
    const buyer = await login(t, 'demobuyer', 'buyer1234!');
    const w = await t.call<Wallet[]>('GET', '/api/v1/wallets', { token: buyer });
    expect(w.body.returnData.map((x) => x.coinCode).sort()).toEqual([...COINS].sort());
    const my = await t.call<{ bankName: string | null }>('GET', '/my', { token: buyer });
    expect(my.body.returnData.bankName).toBe('신한은행');
    const op = await login(t, 'operator', opPassword);
    await runLedgerCheck(t);
    const check = await t.call<{ ok: boolean; counts: { postings: number } }>(
      'GET',
      '/ops/api/v1/ledger/check',
      {
        token: op,
      },
    );
    expect(check.body.returnData.ok).toBe(true);
    expect(check.body.returnData.counts.postings).toBeGreaterThan(0);
  });

  it('prints every credential in one log record', () => {
    const records = captured.lines.filter((l) => l.includes('DEMO ACCOUNTS'));
    expect(records).toHaveLength(1);
    const rec = records[0] ?? '';
    expect(rec).toContain(`operator / ${opPassword}`);
    for (const m of DEMO_MEMBERS) expect(rec).toContain(`${m.loginId} / ${m.password}`);
  });

  it('is idempotent: a second run adds nothing and moves no coin', async () => {
    const count = async () => {
      const [members, listings, entries] = await Promise.all([
        t.app.deps.db
          .selectFrom('members')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        t.app.deps.db
          .selectFrom('sell_listings')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        t.app.deps.db
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return [Number(members.n), Number(listings.n), Number(entries.n)];
    };
    const before = await count();
    const again = await seedDemo(t.app.deps, pino({ level: 'silent' }));
    expect(again?.listingsOpened).toBe(0);
    expect(again?.operator.password).toBeNull();
    expect(await count()).toEqual(before);
    await t.assertLedger();
  });
});

describe('when to seed (DECISIONS §10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { skipStartupTasks: true });
  });
  afterAll(() => t.close());

  it('defaults to yes only on a new embedded database; an explicit SEED_DEMO wins', async () => {
    const deps = t.app.deps;
    const withConfig = (c: Partial<typeof deps.config>) => ({ ...deps, config: { ...deps.config, ...c } });
    expect(await shouldSeedDemo(withConfig({ seedDemo: undefined, databaseUrl: undefined }))).toBe(true);
    expect(await shouldSeedDemo(withConfig({ seedDemo: undefined, databaseUrl: 'postgres://x/y' }))).toBe(
      false,
    );
    expect(await shouldSeedDemo(withConfig({ seedDemo: false, databaseUrl: undefined }))).toBe(false);
    await createMember(t);
    expect(await shouldSeedDemo(withConfig({ seedDemo: undefined, databaseUrl: undefined }))).toBe(false);
    expect(await shouldSeedDemo(withConfig({ seedDemo: true, databaseUrl: 'postgres://x/y' }))).toBe(true);
  });

  it('SEED_DEMO=1 at start with OPERATOR_*: that operator approves the demo listings, no other is made', async () => {
    const t2 = await createTestApp({
      SEED_DEMO: '1',
      OPERATOR_LOGIN_ID: 'envops',
      OPERATOR_PASSWORD: 'Env!pass1',
    });
    try {
      const ops = await t2.app.deps.db
        .selectFrom('members')
        .select(['id', 'login_id'])
        .where('role', '=', 'OPERATOR')
        .execute();
      expect(ops.map((o) => o.login_id)).toEqual(['envops']);
      const approvals = await t2.app.deps.db
        .selectFrom('audit_log')
        .select(['operator_id'])
        .where('action', '=', 'listing.approve')
        .execute();
      expect(approvals.length).toBe(DEMO_MEMBERS.flatMap((m) => m.listings).length);
      expect(new Set(approvals.map((a) => a.operator_id))).toEqual(new Set([ops[0]?.id]));
      await t2.assertLedger();
    } finally {
      await t2.close();
    }
  });

  it('SEED_DEMO=0 at start seeds nothing, OPERATOR_* still creates the operator', async () => {
    const t2 = await createTestApp({
      SEED_DEMO: '0',
      OPERATOR_LOGIN_ID: 'headops',
      OPERATOR_PASSWORD: 'Head!pass1',
    });
    try {
      const rows = await t2.app.deps.db.selectFrom('members').select(['login_id', 'role']).execute();
      expect(rows).toEqual([{ login_id: 'headops', role: 'OPERATOR' }]);
    } finally {
      await t2.close();
    }
  });
});
