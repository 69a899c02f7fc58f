/**
 * Growth benchmark (issue 27): every member and console read endpoint on a small database and on a grown one
 * (200,000 members, 50,000 listings, 2,000,000 orders over 12 months, 5,000,000 notifications and 1,000,000
 * chat messages, times --scale), both live at once behind two API processes, measured interleaved so that the
 * load of a shared machine falls on both sides alike (growth-ab.ts); a bare Fastify route beside them; then the
 * jobs (expiry and escalation, retention purge, reserves snapshot) timed on the grown database, each checked for
 * a sequential read of a whole table (pg_stat_user_tables before and after).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/growth.ts [--scale 0.05]
 *   BENCH_SMALL_DB_URL, BENCH_GROWN_DB_URL: reuse two databases a run kept (no seeding, no growing; the API
 *   migrates them). BENCH_KEEP_DB=1 keeps the databases it made (URLs printed and written to BENCH_DBS_FILE,
 *   default /work/notes/growth-dbs.txt). BENCH_GROW_ONLY=1: make (and keep) them, measure nothing.
 *   BENCH_PAIRS (4 small/grown pairs per endpoint), BENCH_BURST (1.5 s each), BENCH_CONNECTIONS (10),
 *   BENCH_SEQ_MS (3000: the 1-connection pass per endpoint), BENCH_ONLY=<text> (endpoints whose name contains
 *   it), BENCH_NO_JOBS=1 (skip the job ticks), BENCH_EXPLAIN=<ms> (no measuring: auto_explain with ANALYZE and
 *   BUFFERS on the grown database for statements over <ms> ms, each endpoint read 5 times; plans in the server log).
 *
 * Small = the demo seed plus a growth at the minimum sizes (200 members, 50 listings, 2,000 orders, a member
 * with 20 purchases and 20 sales); grown = a copy of small plus the growth at --scale, whose busy member has
 * 20,000 x scale purchases and as many sales. The member endpoints are read as the busy member of each side, the
 * console as the demo operator. The APIs are real processes (apps/api/src/server.ts) on PostgreSQL, autocannon
 * over loopback; the growth itself is SQL through the real tables (bench/growth-sql.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import { seedDemo } from '../apps/api/src/modules/seed/index.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { devXpubs, freePort } from '../scripts/cluster.mjs';
import { type Endpoint, measureAll, ratioTable } from './growth-ab.ts';
import { type Actors, actorsOf, freshDeadlines, growCopy, noteDbs } from './growth-dbs.ts';
import { timeJobs } from './growth-jobs.ts';
import { grow, sizesAt } from './growth-sql.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const scaleArg = process.argv.indexOf('--scale');
const SCALE = scaleArg > 0 ? Number(process.argv[scaleArg + 1]) : 1;
if (!(SCALE > 0 && SCALE <= 1)) {
  process.stderr.write('--scale takes a number in (0, 1]\n');
  process.exit(2);
}
const ONLY = process.env.BENCH_ONLY ?? '';
const GROW_ONLY = process.env.BENCH_GROW_ONLY === '1';
const KEEP = process.env.BENCH_KEEP_DB === '1' || GROW_ONLY;
const DBS_FILE = process.env.BENCH_DBS_FILE ?? '/work/notes/growth-dbs.txt';
const REUSE_SMALL = process.env.BENCH_SMALL_DB_URL;
const REUSE_GROWN = process.env.BENCH_GROWN_DB_URL;
/** BENCH_EXPLAIN=<ms>: no measuring; plans of the grown side's statements over <ms> ms to the server log. */
const EXPLAIN = process.env.BENCH_EXPLAIN ?? null;
const out = (s: string) => process.stdout.write(s);

/** Every member and console read endpoint, as [name, path, token]. */
function endpoints(a: Actors): Endpoint[] {
  const m = a.member;
  const o = a.ops;
  return [
    ['trade list', '/api/v1/sell-listings?size=20', null],
    ['home best listings', '/api/v1/sell-listings/best', null],
    ['my profile', '/my', m],
    ['wallets', '/api/v1/wallets', m],
    ['transfers', `/transfer?walletId=${a.walletId}&size=20`, m],
    ['notifications', '/api/v1/notifications', m],
    ['unread count', '/api/v1/notifications/unread-count', m],
    ['buy history', '/my/buy-history?size=20', m],
    ['sell history', '/my/sell-history?size=20', m],
    ['order counts', '/my/order-counts', m],
    ['order detail', `/my/buy-history/${a.busyOrderId}`, m],
    ['sale detail', `/my/sell-history/${a.busySaleId}`, m],
    ['chat', `/buy-orders/${a.busyOrderId}/messages`, m],
    ['my listings', '/my/sell', m],
    ['login history', '/api/v1/my/logins', m],
    ['reserves', '/api/v1/reserves', null],
    ['ops summary', '/ops/api/v1/summary', o],
    ['ops orders (all)', '/ops/api/v1/orders?size=20', o],
    ['ops orders COMPLETED', '/ops/api/v1/orders?status=COMPLETED&size=20', o],
    ['ops disputes queue', '/ops/api/v1/orders?status=DISPUTED&size=20', o],
    ['ops orders of busy member', `/ops/api/v1/orders?memberId=${a.busyId}&size=20`, o],
    ['ops order', `/ops/api/v1/orders/${a.busyOrderId}`, o],
    ['ops members', '/ops/api/v1/members?size=20', o],
    ['ops members search name', '/ops/api/v1/members?q=park&size=20', o],
    ['ops members search phone', `/ops/api/v1/members?q=${a.phoneLocal}&size=20`, o],
    ['ops member', `/ops/api/v1/members/${a.busyId}`, o],
    ['ops audit log', '/ops/api/v1/audit-log?size=20', o],
    ['ops audit log per target', `/ops/api/v1/audit-log?targetType=listing&targetId=${a.listingId}`, o],
    ['ops withdrawals COMPLETED', '/ops/api/v1/withdrawals?status=COMPLETED&size=20', o],
    ['ops withdrawals PENDING', '/ops/api/v1/withdrawals?status=PENDING&size=20', o],
    ['ops withdrawals overview', '/ops/api/v1/withdrawals/overview', o],
    ['ops listings', '/ops/api/v1/listings?status=PENDING_REVIEW&size=20', o],
    ['ops kyc', '/ops/api/v1/kyc', o],
    ['ops reserves', '/ops/api/v1/reserves', o],
    ['ops unmatched payments', '/ops/api/v1/chain/unmatched', o],
  ].filter(([name]) => !ONLY || String(name).includes(ONLY)) as Endpoint[];
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url}: not ready`);
}

/** A process on a free port, ready when `path` answers 2xx; pushed to `children` to be stopped at the end. */
async function startChild(
  args: string[],
  env: Record<string, string>,
  path: string,
  children: ChildProcess[],
): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}${path}`, child);
  return url;
}

/** The env of an API on `databaseUrl`: as in production but the §19 knobs off, the same JWT secret for both. */
function apiEnv(databaseUrl: string, jwtSecret: string): Record<string, string> {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    JWT_SECRET: jwtSecret,
    ...devXpubs(),
    DATABASE_URL: databaseUrl,
    // The trade list cache would answer every read after the first: the bench measures the query.
    TRADE_LIST_CACHE_MS: '0',
    // The jobs are timed by the bench itself at the end (growth-jobs.ts); the API's own order timers would
    // settle the orders it makes due first. Reads still settle due orders before they answer.
    ORDER_TIMER_INTERVAL_MS: '0',
    // Likewise the ledger check: on a grown ledger never verified, its job walks 5.4 M postings in the
    // background, and its whole-table reads would be counted against the job ticks timed at the end.
    LEDGER_CHECK_INTERVAL_MS: '0',
    LOOKUP_PER_IP_PER_HOUR: '0',
  };
}

type App = Awaited<ReturnType<typeof buildApp>>;

/** The app inside the bench process on `env`'s database (migrates it; tokens and the job ticks use it). */
async function openApp(env: Record<string, string>): Promise<{ app: App; close: () => Promise<void> }> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const dbh = await openDb({ databaseUrl: env.DATABASE_URL, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  return {
    app,
    close: async () => {
      await app.close();
      await dbh.close();
    },
  };
}

/**
 * The small database (fresh: migrated, the demo seed, growth 'a' at the minimum sizes) and the grown one (its
 * copy plus growth 'b' at --scale), or the two given by BENCH_SMALL_DB_URL and BENCH_GROWN_DB_URL.
 */
async function prepareDbs(jwtSecret: string): Promise<{ small: string; grown: string; made: string[] }> {
  if (REUSE_SMALL && REUSE_GROWN) {
    out(`reusing small ${REUSE_SMALL}\n      and grown ${REUSE_GROWN}\n`);
    return { small: REUSE_SMALL, grown: REUSE_GROWN, made: [] };
  }
  const fresh = await freshDatabase(base ?? '', 'growth_small');
  const { app, close } = await openApp(apiEnv(fresh.url, jwtSecret));
  let opId: number;
  try {
    const seeded = await seedDemo(app.deps, app.log);
    if (!seeded) throw new Error('demo seed did not run');
    opId = seeded.operator.id;
    out(`small database ${fresh.name}: demo seed + growth at the minimum sizes\n`);
    await grow(fresh.url, sizesAt(0.001), opId, 'a', out);
    await sql`vacuum analyze`.execute(app.deps.db);
  } finally {
    await close();
  }
  const grownName = fresh.name.replace('growth_small', 'growth_grown');
  const t0 = performance.now();
  const grown = await growCopy(base ?? '', fresh.name, grownName, SCALE, opId, out);
  out(`  small and grown ready in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  return { small: fresh.url, grown, made: [fresh.name, grownName] };
}

async function dropDbs(names: string[]): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    for (const n of names) await c.query(`drop database if exists ${n} with (force)`);
  } finally {
    await c.end();
  }
}

/** Both databases' apps, the bare route and the two API processes, the interleaved pass, the job ticks. */
async function measureBoth(small: string, grown: string, jwtSecret: string, children: ChildProcess[]) {
  const envS = apiEnv(small, jwtSecret);
  const envG = apiEnv(grown, jwtSecret);
  if (EXPLAIN) await autoExplain(grown, EXPLAIN);
  const s = await openApp(envS);
  const g = await openApp(envG);
  out(
    `live orders' deadlines moved ahead: ${await freshDeadlines(small)} small, ${await freshDeadlines(grown)} grown\n`,
  );
  try {
    const [aS, aG] = [await actorsOf(s.app, 'a'), await actorsOf(g.app, 'b')];
    const api = ['--import', 'tsx', 'apps/api/src/server.ts'];
    const urls = {
      small: await startChild(api, envS, '/readyz', children),
      grown: await startChild(api, envG, '/readyz', children),
      bare: await startChild(['bench/bare-server.mjs'], {}, '/bare', children),
    };
    if (EXPLAIN) {
      await explainGrown(urls.grown, endpoints(aG), out);
      return;
    }
    const rows = await measureAll(urls, endpoints(aS), endpoints(aG), out);
    out(`\n${await load()}; scale ${SCALE} (${JSON.stringify(sizesAt(SCALE))})\n`);
    out(ratioTable(rows));
    if (process.env.BENCH_NO_JOBS !== '1') {
      out('\njobs on the grown database:\n');
      await timeJobs(g.app, grown, out);
    }
  } finally {
    await s.close();
    await g.close();
    if (EXPLAIN) await autoExplain(grown, null);
  }
}

/**
 * BENCH_EXPLAIN=<ms>: auto_explain on for the grown database's new sessions (plans of statements over <ms> ms
 * with ANALYZE and BUFFERS, to the server log), or off again (`ms` null).
 */
async function autoExplain(url: string, ms: string | null): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    const settings: [string, string][] = [
      ['session_preload_libraries', 'auto_explain'],
      ['auto_explain.log_min_duration', `${ms}ms`],
      ['auto_explain.log_analyze', 'on'],
      ['auto_explain.log_buffers', 'on'],
    ];
    for (const [k, v] of settings)
      await c.query(
        ms === null ? `alter database ${name} reset ${k}` : `alter database ${name} set ${k} = '${v}'`,
      );
  } finally {
    await c.end();
  }
}

/** The BENCH_EXPLAIN pass: each endpoint read 5 times, one at a time, on the grown side; times printed. */
async function explainGrown(apiUrl: string, eps: Endpoint[], log: (s: string) => void): Promise<void> {
  for (const [name, path, token] of eps) {
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`${apiUrl}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      await res.text();
      ms.push(performance.now() - t0);
    }
    log(`  explain: ${name.padEnd(28)} ${ms.map((x) => x.toFixed(1)).join(' ')} ms\n`);
  }
  log('plans: the PostgreSQL server log (auto_explain), lines of the grown database\n');
}

/** The load average (the machine is shared: every figure is stated beside it). */
async function load(): Promise<string> {
  const os = await import('node:os');
  return `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')} on ${os.cpus().length} cores`;
}

async function main(): Promise<void> {
  const jwtSecret = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const t0 = performance.now();
  const { small, grown, made } = await prepareDbs(jwtSecret);
  try {
    if (made.length && KEEP) {
      out(`kept databases:\n  BENCH_SMALL_DB_URL=${small}\n  BENCH_GROWN_DB_URL=${grown}\n`);
      noteDbs(DBS_FILE, small, grown, SCALE);
      out(`  (written to ${DBS_FILE})\n`);
    }
    if (!GROW_ONLY) {
      out(`${await load()}\n`);
      await measureBoth(small, grown, jwtSecret, children);
    }
    out(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    for (const c of children) await stopChild(c);
    if (made.length && !KEEP) await dropDbs(made);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
