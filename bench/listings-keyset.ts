/**
 * Trade-list benchmark (issue 3 "Must show"): page 1 vs a page 1,000 listings deep on 10,000 OPEN listings.
 * Needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/p2p_dev npx tsx bench/listings-keyset.ts
 * Creates a fresh database (dropped at the end), seeds it with SQL, then times GET /api/v1/sell-listings
 * through the full HTTP stack (app.inject: routing, validation, serialization), interleaving the pages.
 * Not a test: prints medians and p95 in ms. Options: BENCH_REPS (default 300), BENCH_LISTINGS (10000),
 * BENCH_KEEP_DB=1 (keep the seeded database for EXPLAIN).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { COINS } from '@p2p/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';

/** The registry's coins as a SQL array literal (codes are [A-Z0-9]), dealt round robin to bench wallets. */
const COIN_ARRAY = sql.raw(`(array[${COINS.map((c) => `'${c}'`).join(',')}])`);

const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const reps = Number.parseInt(process.env.BENCH_REPS ?? '300', 10);
const listings = Number.parseInt(process.env.BENCH_LISTINGS ?? '10000', 10);
const dbName = `bench_${randomBytes(4).toString('hex')}`;

async function admin(q: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(q);
  await c.end();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}
function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.95)] ?? Number.NaN;
}

async function main(): Promise<void> {
  await admin(`create database ${dbName}`);
  const url = new URL(base ?? '');
  url.pathname = `/${dbName}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    // The query's cost by depth is what is measured, not the trade list cache (issue 15) that answers repeats.
    TRADE_LIST_CACHE_MS: '0',
  });
  const dbh = await openDb({ databaseUrl: url.toString(), dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  try {
    await seed(dbh.db, listings);
    const get = async (path: string) => {
      const res = await app.inject({ method: 'GET', url: path });
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      return res.json() as { returnData: { nextCursor: string | null; list: unknown[] } };
    };
    /** The cursor after `depth` listings, reached by walking pages of 20 like a client would. */
    const cursorAt = async (query: string, depth: number) => {
      let cursor = '';
      for (let seen = 0; seen < depth; seen += 20) {
        const page = await get(`/api/v1/sell-listings?${query}&size=20${cursor ? `&cursor=${cursor}` : ''}`);
        cursor = page.returnData.nextCursor ?? '';
      }
      return cursor;
    };
    const lines: string[] = [];
    for (const query of [
      'sort=CREATED_DESC',
      'sort=PRICE_ASC',
      'sort=PRICE_DESC',
      'sort=PRICE_ASC&coin=BTC',
    ]) {
      const targets = [
        { label: 'page 1', path: `/api/v1/sell-listings?${query}&size=20` },
        {
          label: '1,000 deep',
          path: `/api/v1/sell-listings?${query}&size=20&cursor=${await cursorAt(query, 1000)}`,
        },
      ];
      if (!query.includes('coin')) {
        const deep = await cursorAt(query, 9000);
        targets.push({ label: '9,000 deep', path: `/api/v1/sell-listings?${query}&size=20&cursor=${deep}` });
      }
      for (const tg of targets) for (let i = 0; i < 30; i++) await get(tg.path); // warm-up
      const times = targets.map(() => [] as number[]);
      for (let i = 0; i < reps; i++) {
        for (const [k, tg] of targets.entries()) {
          const t0 = performance.now();
          await get(tg.path);
          times[k]?.push(performance.now() - t0);
        }
      }
      const m0 = median(times[0] ?? []);
      for (const [k, tg] of targets.entries()) {
        const m = median(times[k] ?? []);
        const ratio = k === 0 ? '' : ` (${((m / m0 - 1) * 100).toFixed(1)}% vs page 1)`;
        lines.push(
          `${query.padEnd(24)} ${tg.label.padEnd(11)} median ${m.toFixed(2)} ms  p95 ${p95(times[k] ?? []).toFixed(2)} ms${ratio}`,
        );
      }
    }
    process.stdout.write(`${listings} OPEN listings, ${reps} interleaved repetitions each, app.inject\n`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await dbh.close();
    if (process.env.BENCH_KEEP_DB === '1') process.stdout.write(`kept database ${dbName}\n`);
    else await admin(`drop database if exists ${dbName} with (force)`);
  }
}

/** 10,000 sellers, each with one wallet and one OPEN listing in a coin and at a price that vary. */
async function seed(db: import('../apps/api/src/db/client.ts').Db, n: number): Promise<void> {
  await sql`
    insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
    select 'bench' || g, 'bnick' || g, 'Bench Seller ' || g, '82', '+8210' || lpad(g::text, 8, '0'), 'x'
    from generate_series(1, ${n}) g`.execute(db);
  await sql`
    insert into wallets (member_id, coin, address, derivation_index)
    select id, ${COIN_ARRAY}[1 + id % ${sql.lit(COINS.length)}], 'bench-addr-' || id, id from members
    where login_id like 'bench%'`.execute(db);
  await sql`
    insert into sell_listings (seller_id, wallet_id, coin, min_qty, max_qty, remaining_qty, unit_price_krw,
                               bank_name, account_no, status, created_at)
    select w.member_id, w.id, w.coin, 0.01, 1, 1, 1000 + (w.id * 7919) % 100000, 'Bank', '1234', 'OPEN',
           now() - make_interval(secs => ${n} - w.id)
    from wallets w where w.address like 'bench-addr-%' order by w.id`.execute(db);
  await sql`analyze`.execute(db);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
