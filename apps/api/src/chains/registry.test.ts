import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COINS, coinSpec } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshDatabase } from '../../test/infra.ts';
import { type DbHandle, openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { BUNDLED_STATIC_FILE } from '../modules/prices/index.ts';
import { parseAccountKey } from './derive.ts';
import { CHAIN_ADAPTERS } from './registry.ts';

/**
 * The coin registry check: every coin of the contract's COIN_SPECS has a chain adapter, address
 * vectors it passes, price ids and a bundled static price, and a row of the `coins` table. The web app's
 * half (icon, names in en/kr/jp) is apps/web/src/coin-registry.test.ts.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const MIGRATIONS = join(HERE, '../db/migrations');

/** chains/vectors/<coin>.json: a derivation from a published or independently computed account key. */
const vectorFile = z.object({
  source: z.string().min(20),
  network: z.enum(['mainnet', 'testnet']),
  accountKey: z.string(),
  receive: z.array(z.object({ index: z.number().int().nonnegative(), address: z.string() })).min(2),
  valid: z.array(z.string()).min(1),
  invalid: z.array(z.string()).min(1),
});

function vectorsOf(coin: string): z.infer<typeof vectorFile> {
  const file = join(HERE, 'vectors', `${coin.toLowerCase()}.json`);
  if (!existsSync(file))
    throw new Error(`${coin} has no address vectors: add chains/vectors/${coin.toLowerCase()}.json`);
  return vectorFile.parse(JSON.parse(readFileSync(file, 'utf8')));
}

describe.each(COINS)('coin registry: %s', (coin) => {
  const spec = coinSpec(coin);

  it('has a chain adapter of its own', () => {
    const adapter = CHAIN_ADAPTERS[coin];
    expect(adapter, `no chain adapter for ${coin} in chains/registry.ts`).toBeDefined();
    expect(adapter.coin).toBe(coin);
    expect(adapter.accountPath('mainnet')).toBe(spec.accountPath.mainnet);
  });

  it('derives its vectors and checks addresses with them (chains/vectors)', () => {
    const v = vectorsOf(coin);
    const adapter = CHAIN_ADAPTERS[coin];
    const account = parseAccountKey(v.accountKey);
    for (const r of v.receive) {
      const address = adapter.depositAddress(account, r.index, v.network);
      expect(address, `${coin} 0/${r.index}`).toBe(r.address);
      expect(adapter.isValidAddress(address, v.network)).toBe(true);
      expect(adapter.normalizeAddress(address)).toBe(address);
    }
    for (const a of v.valid) expect(adapter.isValidAddress(a, v.network), a).toBe(true);
    for (const a of v.invalid) expect(adapter.isValidAddress(a, v.network), a).toBe(false);
  });

  it('has price ids and a bundled static price', () => {
    expect(spec.prices.coingeckoId).toMatch(/^[a-z0-9-]+$/);
    expect(spec.prices.upbitMarket).toMatch(/^KRW-[A-Z0-9]+$/);
    const bundled = JSON.parse(readFileSync(BUNDLED_STATIC_FILE, 'utf8')) as { prices: { coin: string }[] };
    expect(bundled.prices.map((p) => p.coin)).toContain(coin);
  });
});

describe('coin registry: one entry per coin', () => {
  it('gives every coin distinct price ids and no adapter or vectors file to a coin it lacks', () => {
    expect(new Set(COINS.map((c) => coinSpec(c).prices.coingeckoId)).size).toBe(COINS.length);
    expect(new Set(COINS.map((c) => coinSpec(c).prices.upbitMarket)).size).toBe(COINS.length);
    expect(Object.keys(CHAIN_ADAPTERS).sort()).toEqual([...COINS].sort());
  });

  it('fails for a coin without vectors (the check can fail)', () => {
    expect(() => vectorsOf('NOPE')).toThrow(/no address vectors/);
  });
});

describe('the coins table (012_coins.sql)', () => {
  let dbh: DbHandle;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const base = process.env.DATABASE_URL;
    const fresh = base ? await freshDatabase(base, 'coins') : null;
    drop = fresh?.drop;
    dbh = await openDb({ databaseUrl: fresh?.url, dataDir: '.', inMemory: !fresh });
    // Every migration before 012, then rows of each coin table, then the rest: 012 must keep them valid.
    const files = readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    await dbh.db.transaction().execute(async (tx) => {
      await sql`create table schema_migrations (
        name text primary key, applied_at timestamptz not null default now())`.execute(tx);
      for (const f of files.filter((name) => name < '012')) {
        await dbh.execScript(tx, readFileSync(join(MIGRATIONS, f), 'utf8'));
        await sql`insert into schema_migrations (name) values (${f})`.execute(tx);
      }
      await dbh.execScript(
        tx,
        `insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
           values ('coins1', 'coins1', 'Coin Test', '82', '+821000000099', 'x');
         insert into wallets (member_id, coin, address, derivation_index)
           select id, 'XRP', 'rU6K7V3Po4snVhBBaU29sesqs2qTQJWDw1', 0 from members where login_id = 'coins1';
         insert into ledger_accounts (member_id, coin, kind) select id, 'TRX', 'available' from members;`,
      );
    });
    const applied = await migrate(dbh);
    expect(applied).toContain('012_coins.sql');
  });

  afterAll(async () => {
    await dbh?.close();
    await drop?.();
  });

  it('lists exactly the registry coins, and keeps the rows written before it', async () => {
    const rows = await dbh.db.selectFrom('coins').select('code').orderBy('code').execute();
    expect(rows.map((r) => r.code)).toEqual([...COINS].sort());
    const counters = await dbh.db.selectFrom('derivation_counters').select('coin').orderBy('coin').execute();
    expect(counters.map((r) => r.coin)).toEqual([...COINS].sort());
    expect(await dbh.db.selectFrom('wallets').select('coin').execute()).toEqual([{ coin: 'XRP' }]);
  });

  it('refuses a coin outside the table in every coin column, and a new row brings its counter', async () => {
    for (const table of [
      'ledger_accounts',
      'wallets',
      'sell_listings',
      'buy_orders',
      'transfers',
      'ledger_postings',
    ]) {
      const fk = await sql<{ n: number }>`
        select count(*)::int as n from pg_constraint
        where conname = ${`${table}_coin_fkey`} and contype = 'f'`.execute(dbh.db);
      expect(fk.rows[0]?.n, table).toBe(1);
    }
    await expect(
      sql`insert into wallets (member_id, coin, address, derivation_index)
          select id, 'DOGE', 'D-addr', 0 from members limit 1`.execute(dbh.db),
    ).rejects.toThrow(/foreign key|wallets_coin_fkey/);
    await sql`insert into coins (code) values ('ZZZ')`.execute(dbh.db);
    const counter = await sql<{ next_index: number }>`
      select next_index from derivation_counters where coin = 'ZZZ'`.execute(dbh.db);
    expect(counter.rows).toEqual([{ next_index: 0 }]);
  });
});
