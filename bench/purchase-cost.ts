/**
 * Cost of one purchase beside pgbench's TPC-B (issue 27): builds the API in process on a fresh PostgreSQL
 * database and makes BENCH_PURCHASES purchases one after another, each the member's real sequence
 * (POST /sms/request, GET /dev/sms/outbox for the code, POST /sms/verify, POST /buy-orders), then runs
 * `pgbench` (built-in TPC-B-like script, one client) on a scratch database in the same run, and prints per
 * purchase and per TPC-B transaction:
 *   - round trips: every statement the pg driver sends (pg.Client.prototype.query wrapped; a statement sent is
 *     one round trip in the extended protocol), by request; pgbench: its 7 statements (simple protocol);
 *   - statements PostgreSQL ran at top level and nested (pg_stat_statements with track = all) when the
 *     extension is loaded (shared_preload_libraries); otherwise "n/a" and the round trips stand for them;
 *   - PostgreSQL CPU: utime + stime of the serving backends from /proc/<pid>/stat (pids from pg_stat_activity),
 *     before and after; for pgbench its backend is sampled every 20 ms while it runs;
 *   - API CPU: process.cpuUsage() of this process across the purchases (app.inject: routing, validation,
 *     the handlers, the driver; no socket), and pgbench's own client CPU (/proc) for comparison;
 *   - live-event rows and NOTIFYs per purchase (member_events rows added; one NOTIFY per row).
 * Not a test.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/purchase-cost.ts
 *   # BENCH_PURCHASES=300, BENCH_TPCB=3000 (pgbench transactions), BENCH_SQL=1 prints one purchase's statements
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import {
  BTC_PRICE,
  buyBody,
  openListing,
  operator,
  type Trader,
  trader,
} from '../apps/api/src/modules/orders/test-kit.ts';
import type { TestApp } from '../apps/api/test/helpers.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { devXpubs } from '../scripts/cluster.mjs';

const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 300);
const TPCB = Number(process.env.BENCH_TPCB ?? 3000);
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

const seen: string[] = [];
const original = pg.Client.prototype.query;
Object.defineProperty(pg.Client.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function query(this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    seen.push(typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? String(q)));
    return Reflect.apply(original, this, args);
  },
});

/** CPU ms (user + system) a process has used, from /proc; 0 when it is gone. */
function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

async function backendPids(admin: pg.Client, db: string): Promise<number[]> {
  const r = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    [db],
  );
  return r.rows.map((x) => x.pid);
}

async function statStatements(admin: pg.Client): Promise<number | null> {
  try {
    const r = await admin.query<{ n: string }>('select sum(calls)::text as n from pg_stat_statements');
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return null;
  }
}

/** One purchase's four requests; answers the round trips of each. */
async function purchase(t: TestApp, buyer: Trader, listing: number): Promise<Record<string, number>> {
  const per: Record<string, number> = {};
  const step = async (name: string, method: string, url: string, body?: unknown) => {
    const before = seen.length;
    const res = await t.call<{ code?: string }>(method, url, { body, token: buyer.token });
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    per[name] = seen.length - before;
    return res.body.returnData;
  };
  await step('sms request', 'POST', '/sms/request', { phone: buyer.phoneE164 });
  const out = await step(
    'outbox (dev)',
    'GET',
    `/dev/sms/outbox?phone=${encodeURIComponent(buyer.phoneE164)}`,
  );
  await step('sms verify', 'POST', '/sms/verify', { phone: buyer.phoneE164, code: out.code });
  await step('buy order', 'POST', '/buy-orders', buyBody(listing, 100_000, BTC_PRICE, buyer.wallet.id));
  return per;
}

async function setUp(url: string) {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    ORDER_TIMER_INTERVAL_MS: '0',
    LEDGER_CHECK_INTERVAL_MS: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...devXpubs(),
    DATABASE_URL: url,
    SMS_PER_IP_PER_HOUR: '0',
    SMS_PER_PHONE_PER_HOUR: '0',
    SMS_PER_MEMBER_PER_HOUR: '0',
    SMS_RESEND_COOLDOWN_SEC: '0',
    LOOKUP_PER_IP_PER_HOUR: '0',
    MAX_LIVE_ORDERS_PER_BUYER: '100000000',
    BUYER_CANCELS_PER_DAY: '100000000',
  });
  const dbh = await openDb({ databaseUrl: url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  const call = async (method: string, path: string, o: { body?: unknown; token?: string } = {}) => {
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      payload: o.body === undefined ? undefined : JSON.stringify(o.body),
      headers: {
        ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const t = { app, config, call } as unknown as TestApp;
  return { t, app, dbh };
}

/** The purchases: round trips per request, CPU of this process and of PostgreSQL's backends, events. */
async function measurePurchases(admin: pg.Client, dbName: string, url: string) {
  const { t, app, dbh } = await setUp(url);
  try {
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '100', 'Park Younghee');
    const listing = await openListing(t, seller, op, {
      minQty: '0.001',
      maxQty: '100',
      unitPriceKrw: BTC_PRICE,
    });
    const buyers: Trader[] = [];
    for (let i = 0; i < 8; i++) buyers.push(await trader(t, 'BTC'));
    for (let i = 0; i < 20; i++) await purchase(t, buyers[i % buyers.length] as Trader, listing);
    // as autovacuum would on a live database: plans made on empty tables would scan
    await sql`analyze`.execute(dbh.db);
    await new Promise((r) => setTimeout(r, 300));
    if (process.env.BENCH_SQL === '1') {
      seen.length = 0;
      await purchase(t, buyers[0] as Trader, listing);
      for (const s of seen) process.stdout.write(`    ${s.replace(/\s+/g, ' ').slice(0, 200)}\n`);
    }
    const pids0 = await backendPids(admin, dbName);
    const pg0 = new Map(pids0.map((p) => [p, procCpuMs(p)]));
    const stmts0 = await statStatements(admin);
    const ev0 = await eventRows(url);
    seen.length = 0;
    const totals: Record<string, number> = {};
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    for (let i = 0; i < PURCHASES; i++) {
      const per = await purchase(t, buyers[i % buyers.length] as Trader, listing);
      for (const [k, v] of Object.entries(per)) totals[k] = (totals[k] ?? 0) + v;
    }
    const wall = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    await new Promise((r) => setTimeout(r, 200));
    const trips = seen.length;
    const stmts1 = await statStatements(admin);
    let pgMs = 0;
    for (const p of await backendPids(admin, dbName)) pgMs += procCpuMs(p) - (pg0.get(p) ?? 0);
    const ev1 = await eventRows(url);
    return {
      trips: trips / PURCHASES,
      perRequest: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v / PURCHASES])),
      statements: stmts0 === null || stmts1 === null ? null : (stmts1 - stmts0) / PURCHASES,
      apiMs: (cpu.user + cpu.system) / 1000 / PURCHASES,
      pgMs: pgMs / PURCHASES,
      wallMs: wall / PURCHASES,
      events: (ev1 - ev0) / PURCHASES,
    };
  } finally {
    await app.close();
    await dbh.close();
  }
}

async function eventRows(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('select coalesce(max(id), 0)::text as n from member_events');
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

/** pgbench's TPC-B-like script, one client, on a scratch database: CPU of its backend and of pgbench. */
async function measureTpcb(admin: pg.Client, baseUrl: string) {
  const name = `bench_tpcb_${process.pid}`;
  await admin.query(`create database ${name}`);
  const u = new URL(baseUrl);
  const args = ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres')];
  try {
    execFileSync('pgbench', [...args, '-i', '-q', '-s', '1', name], { stdio: 'ignore' });
    const child = spawn('pgbench', [...args, '-n', '-c', '1', '-j', '1', '-t', String(TPCB), name], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    let backend = 0;
    let pgMs = 0;
    let clientMs = 0;
    const sample = setInterval(() => {
      void backendPids(admin, name).then((p) => {
        if (p[0]) backend = p[0];
      });
      if (backend) pgMs = Math.max(pgMs, procCpuMs(backend));
      if (child.pid) clientMs = Math.max(clientMs, procCpuMs(child.pid));
    }, 20);
    await new Promise((r) => child.on('exit', r));
    clearInterval(sample);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
    const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? 0);
    return { pgMs: pgMs / TPCB, clientMs: clientMs / TPCB, tps, latency };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
  }
}

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'pcost');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const dbName = new URL(fresh.url).pathname.slice(1);
    const p = await measurePurchases(admin, dbName, fresh.url);
    const b = await measureTpcb(admin, base ?? '');
    const fmt = (n: number) => n.toFixed(2);
    const lines = [
      `purchases: ${PURCHASES} (4 requests each), pgbench TPC-B: ${TPCB} transactions, 1 client`,
      `round trips per purchase: ${fmt(p.trips)} (${Object.entries(p.perRequest)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')})`,
      `statements per purchase (pg_stat_statements): ${p.statements === null ? 'n/a (not loaded)' : fmt(p.statements)}`,
      `live-event rows (= NOTIFYs) per purchase: ${fmt(p.events)}`,
      `PostgreSQL CPU per purchase: ${fmt(p.pgMs)} ms; API CPU per purchase: ${fmt(p.apiMs)} ms; wall ${fmt(p.wallMs)} ms`,
      `TPC-B per transaction: 7 statements, 7 round trips; PostgreSQL CPU ${fmt(b.pgMs)} ms, pgbench CPU ${fmt(
        b.clientMs,
      )} ms; ${fmt(b.tps)} tps, latency ${fmt(b.latency)} ms`,
      `purchase / 3 TPC-B: PostgreSQL CPU ${fmt(p.pgMs / (3 * b.pgMs))}x, round trips ${fmt(p.trips / 21)}x, ` +
        `PostgreSQL + client CPU ${fmt((p.pgMs + p.apiMs) / (3 * (b.pgMs + b.clientMs)))}x`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await admin.end();
    await fresh.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
