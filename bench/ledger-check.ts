/**
 * The ledger check job at scale (issue 27): grows a fresh PostgreSQL database's ledger to BENCH_POSTINGS
 * postings (SQL generate_series through the real tables, every entry balanced: a deposit of 0.001 BTC from
 * `chain:BTC` to one of BENCH_MEMBERS members, balances set from the postings), then runs the job's ticks in this
 * process as the lease holder would, with the production chunk size: the incremental pass from posting 0 to the
 * end (a first start on an existing ledger), a full pass to its end, then an incremental tick after 1,000 new
 * postings. Prints the time of each, the progress reports of the full pass, this process's peak RSS and heap (the
 * memory the job may hold: bounded by the chunk, not the ledger), and what GET /ops/api/v1/ledger/check costs
 * meanwhile (one row). Not a test.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ledger-check.ts
 *   # BENCH_POSTINGS=20000000 BENCH_MEMBERS=200000 LEDGER_CHECK_CHUNK=200000; BENCH_KEEP_DB=1 keeps the database
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import { ledgerCheckTick, requestFullCheck, storedLedgerCheck } from '../apps/api/src/ledger/index.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { devXpubs } from '../scripts/cluster.mjs';

const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 20_000_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200_000);
const CHUNK = Number(process.env.LEDGER_CHECK_CHUNK ?? 200_000);

let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 50);
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const log = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

async function grow(db: import('../apps/api/src/db/client.ts').Db): Promise<void> {
  await sql`insert into members (login_id, nickname, name, country_code, phone_e164, password_hash, bank_name,
      account_no, role)
    select 'lc' || g, 'lc' || g, 'Bench', '82', '+8210' || (60000000 + g)::text, 'x', 'KB국민은행', '123456789012',
      'MEMBER' from generate_series(1, ${MEMBERS}::int) g`.execute(db);
  await sql`insert into ledger_accounts (member_id, coin, kind)
    select id, 'BTC', 'available' from members where login_id like 'lc%'`.execute(db);
  await sql`insert into ledger_accounts (member_id, coin, kind) values (null, 'BTC', 'chain')
    on conflict do nothing`.execute(db);
  const entries = Math.floor(POSTINGS / 2);
  const step = 1_000_000;
  for (let lo = 0; lo < entries; lo += step) {
    const hi = Math.min(entries, lo + step);
    // the members' accounts were inserted in one statement: their ids are one range (lo .. lo + n - 1)
    await sql`with a as (select min(id) as lo, count(*) as n from ledger_accounts where kind = 'available'
                           and coin = 'BTC'),
                   c as (select id from ledger_accounts where member_id is null and coin = 'BTC' and kind = 'chain'),
                   e as (insert into ledger_entries (ref, kind) select 'lc-' || g, 'DEPOSIT'
                         from generate_series(${lo + 1}::int, ${hi}::int) g returning id)
      insert into ledger_postings (entry_id, account_id, coin, amount)
      select e.id, x.acct, 'BTC', x.amt from e, a, c,
        lateral (values (c.id, -0.001::numeric), (a.lo + e.id % a.n, 0.001::numeric)) x(acct, amt)`.execute(
      db,
    );
    log(`grown: ${hi * 2} postings`);
  }
  await sql`update ledger_accounts a set balance = s.total
    from (select account_id, sum(amount) as total from ledger_postings group by account_id) s
    where s.account_id = a.id`.execute(db);
  await sql`vacuum analyze ledger_postings`.execute(db);
  await sql`vacuum analyze ledger_accounts`.execute(db);
}

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'lcheck');
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    ORDER_TIMER_INTERVAL_MS: '0',
    LEDGER_CHECK_INTERVAL_MS: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...devXpubs(),
    DATABASE_URL: fresh.url,
  });
  const dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  const { db, invariants } = app.deps;
  try {
    let t0 = Date.now();
    await grow(db);
    log(`grew ${POSTINGS} postings, ${MEMBERS} members in ${secs(Date.now() - t0)}`);
    peakRss = 0;
    peakHeap = 0;
    const opts = { settleMs: 0, chunk: CHUNK, budgetMs: 7_500, fullEveryMs: 0 };

    t0 = Date.now();
    let ticks = 0;
    for (;;) {
      const out = await ledgerCheckTick(db, invariants, opts);
      ticks++;
      const st = await storedLedgerCheck(db);
      log(
        `incremental tick ${ticks}: verified through ${st.verifiedThrough}, problems ${st.problems.length}`,
      );
      if (out.caughtUp) break;
    }
    log(`incremental from 0: ${secs(Date.now() - t0)} in ${ticks} ticks of <= 7.5 s`);

    await requestFullCheck(db);
    t0 = Date.now();
    ticks = 0;
    for (;;) {
      const out = await ledgerCheckTick(db, invariants, opts);
      ticks++;
      const g0 = performance.now();
      const st = await storedLedgerCheck(db);
      const getMs = performance.now() - g0;
      const progress = out.full ? `${(out.full.progress * 100).toFixed(1)}%` : 'not started';
      log(
        `full tick ${ticks}: progress ${progress}, stored result read in ${getMs.toFixed(1)} ms, ok ${st.ok}`,
      );
      if (out.full?.finished) break;
    }
    const st = await storedLedgerCheck(db);
    log(
      `full pass: ${secs(Date.now() - t0)} in ${ticks} ticks; ok ${st.ok}, counts ${JSON.stringify(st.counts)}`,
    );

    await sql`with e as (insert into ledger_entries (ref, kind) select 'lc-new-' || g, 'DEPOSIT'
                         from generate_series(1, 500) g returning id),
                   c as (select id from ledger_accounts where member_id is null and coin = 'BTC' and kind = 'chain'),
                   a as (select min(id) as id from ledger_accounts where kind = 'available')
      insert into ledger_postings (entry_id, account_id, coin, amount)
      select e.id, x.acct, 'BTC', x.amt from e, a, c,
        lateral (values (c.id, -0.001::numeric), (a.id, 0.001::numeric)) x(acct, amt)`.execute(db);
    await sql`update ledger_accounts set balance = balance + 0.5 where id = (select min(id) from ledger_accounts
      where kind = 'available')`.execute(db);
    await sql`update ledger_accounts set balance = balance - 0.5 where member_id is null and coin = 'BTC'
      and kind = 'chain'`.execute(db);
    t0 = Date.now();
    const inc = await ledgerCheckTick(db, invariants, opts);
    log(
      `incremental after 1,000 new postings: ${secs(Date.now() - t0)}, verified ${inc.verified}, problems ${inc.problems.length}`,
    );
    log(`peak of this process while checking: RSS ${mb(peakRss)}, heap ${mb(peakHeap)}`);
  } finally {
    clearInterval(sampler);
    await app.close();
    await dbh.close();
    if (process.env.BENCH_KEEP_DB !== '1') await fresh.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
