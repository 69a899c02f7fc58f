/**
 * Hot-path benchmark (issue 15): the API as a real process on PostgreSQL, driven by autocannon over loopback,
 * each path beside a bare Fastify route (bench/bare-server.mjs, its own process) in the same run, because on
 * a shared machine only the ratio means something.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/hot-paths.ts
 *   BENCH_ROUNDS (3), BENCH_DURATION (8 s per measurement), BENCH_CONNECTIONS (32), BENCH_LISTINGS (2000),
 *   BENCH_SELLERS (64: funded sellers, one listing each, the purchases spread over; 1 = every order on the same
 *   listing row, the worst case),
 *   BENCH_PROFILE=1 (runs the API under `node --cpu-prof`, profiles in $TMPDIR/p2p-bench-profiles; see profile-top.mjs),
 *   BENCH_KEEP_DB=1 (keeps the database for EXPLAIN ANALYZE),
 *   BENCH_ONLY=<name> (only the measurements whose name contains it: 'purchase', 'trade list', 'list+buy')
 *
 * Paths: the trade list (GET /api/v1/sell-listings, first page of 20 over BENCH_LISTINGS open listings) vs a
 * bare GET; a purchase = POST /sms/request + GET /dev/sms/outbox (the code) + POST /sms/verify + POST
 * /buy-orders, each connection one buyer, vs a bare POST. The trade list is measured with no writes beside it, so
 * after its first read it is answered from the trade list cache (TRADE_LIST_CACHE_MS, issue 15); `list+buy` reads it
 * on half the connections while the other half purchase, so every order drops the cache. purchases/s = orders
 * created (200 on POST /buy-orders) / duration. Every measurement prints its errors and non-2xx answers by status.
 * A fresh database is created and dropped. Not a test: prints figures and never fails on them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COINS } from '@p2p/contract';
import autocannon from 'autocannon';
import { sql } from 'kysely';
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
import { devXpubs, freePort } from '../scripts/cluster.mjs';

/** The registry's coins as a SQL array literal (codes are [A-Z0-9]), dealt round robin to bench wallets. */
const COIN_ARRAY = sql.raw(`(array[${COINS.map((c) => `'${c}'`).join(',')}])`);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 2000);
const PROFILE = process.env.BENCH_PROFILE === '1';
const ONLY = process.env.BENCH_ONLY ?? '';
/**
 * Funded sellers (one listing each) the purchases spread over. Real traffic buys from many sellers at once;
 * 1 puts every order in the queue for the same listing row lock (the worst case).
 */
const SELLERS = Number(process.env.BENCH_SELLERS ?? 64);

interface Run {
  rps: number;
  ok: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx by status code, e.g. {"429": 3}. */
  statuses: Record<string, number>;
  /** Purchase only: orders created (200 on POST /buy-orders). */
  orders?: number;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url}: not ready`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

async function cannon(opts: autocannon.Options): Promise<Run> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  const ok = r['2xx'];
  const statuses: Record<string, number> = {};
  const stats = (r as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  for (const [code, v] of Object.entries(stats)) if (!code.startsWith('2')) statuses[code] = v.count;
  return {
    rps: ok / r.duration,
    ok,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statuses,
  };
}

/** One purchase by fetch before the load: a setup mistake shows as a clear error, not as a load of 4xx. */
async function smokePurchase(apiUrl: string, b: Trader, order: string): Promise<void> {
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${b.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    });
    const json = (await res.json()) as { returnData: { code?: string } };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.returnData;
  };
  await call('POST', '/sms/request', JSON.stringify({ phone: b.phoneE164 }));
  const { code } = await call('GET', `/dev/sms/outbox?phone=${encodeURIComponent(b.phoneE164)}`);
  await call('POST', '/sms/verify', JSON.stringify({ phone: b.phoneE164, code }));
  await call('POST', '/buy-orders', order);
}

/**
 * p50/p99 per route from the API's own histogram (bucket upper bounds): how the client-side latency splits
 * over the four requests of a purchase, measured inside the server.
 */
async function routeLatency(apiUrl: string): Promise<string> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  const series = new Map<string, { le: number; n: number }[]>();
  for (const line of text.split('\n')) {
    const m = line.match(
      /^http_request_duration_seconds_bucket\{le="([^"]+)",method="(\w+)",route="([^"]+)",status_code="(\d+)"\} (\d+)/,
    );
    if (!m || m[3] === '/metrics' || m[3] === '/readyz') continue;
    const key = `${m[2]} ${m[3]} ${m[4]}`;
    const list = series.get(key) ?? [];
    list.push({ le: m[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[1]), n: Number(m[5]) });
    series.set(key, list);
  }
  const q = (b: { le: number; n: number }[], p: number) => {
    const total = b[b.length - 1]?.n ?? 0;
    const hit = b.find((x) => x.n >= total * p);
    return hit && Number.isFinite(hit.le) ? `<= ${hit.le * 1000} ms` : '> 10 s';
  };
  return [...series]
    .map(
      ([k, b]) =>
        `  ${k.padEnd(40)} ${String(b[b.length - 1]?.n).padStart(7)}  p50 ${q(b, 0.5)}  p99 ${q(b, 0.99)}\n`,
    )
    .join('');
}

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'bench');
  const env = {
    NODE_ENV: 'development',
    // Request logs on, as in production; stdout goes to /dev/null. The bare server logs alike.
    LOG_LEVEL: 'info',
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...devXpubs(),
    DATABASE_URL: fresh.url,
    // One client on 127.0.0.1 plays every buyer, each buying again and again: the per-IP, per-phone and
    // per-member SMS budgets, the lookup budget and the buyer limits (DECISIONS §11) would turn the run into 429s and 422s
    // within seconds. They are off or out of reach, so the bench measures the work. Each order still needs its
    // own phone check (one order per check is not a setting).
    SMS_PER_IP_PER_HOUR: '0',
    SMS_PER_PHONE_PER_HOUR: '0',
    SMS_PER_MEMBER_PER_HOUR: '0',
    SMS_RESEND_COOLDOWN_SEC: '0',
    LOOKUP_PER_IP_PER_HOUR: '0',
    MAX_LIVE_ORDERS_PER_BUYER: '100000000',
    BUYER_CANCELS_PER_DAY: '100000000',
  };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', ORDER_TIMER_INTERVAL_MS: '0' });
  const dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  const children: ChildProcess[] = [];
  try {
    const t = {
      app,
      config,
      call: async (method: string, url: string, o: { body?: unknown; token?: string } = {}) => {
        const res = await app.inject({
          method: method as 'GET',
          url,
          payload: o.body === undefined ? undefined : JSON.stringify(o.body),
          headers: {
            ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          },
        });
        return { status: res.statusCode, body: res.json() };
      },
    } as unknown as TestApp;

    // The market: LISTINGS open listings by SQL (the list never reads the ledger), plus SELLERS funded sellers
    // whose listings the buyers buy from through the real escrow.
    await sql`
      insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
      select 'bench' || g, 'bnick' || g, 'Bench Seller ' || g, '82', '+8219' || lpad(g::text, 8, '0'), 'x'
      from generate_series(1, ${LISTINGS}) g`.execute(dbh.db);
    await sql`
      insert into wallets (member_id, coin, address, derivation_index)
      select id, ${COIN_ARRAY}[1 + id % ${sql.lit(COINS.length)}], 'bench-addr-' || id, id from members
      where login_id like 'bench%'`.execute(dbh.db);
    await sql`
      insert into sell_listings (seller_id, wallet_id, coin, min_qty, max_qty, remaining_qty, unit_price_krw,
                                 bank_name, account_no, status, created_at)
      select w.member_id, w.id, w.coin, 0.01, 1, 1, 1000 + (w.id * 7919) % 100000, 'Bank', '1234', 'OPEN',
             now() - make_interval(secs => ${LISTINGS} - w.id)
      from wallets w where w.address like 'bench-addr-%' order by w.id`.execute(dbh.db);
    const op = await operator(t);
    const listings: number[] = [];
    for (let i = 0; i < SELLERS; i++) {
      const s = await trader(t, 'BTC', '100000', 'Park Younghee');
      listings.push(
        await openListing(t, s, op, { minQty: '0.001', maxQty: '100000', unitPriceKrw: BTC_PRICE }),
      );
    }
    const buyers: Trader[] = [];
    for (let i = 0; i < CONNECTIONS; i++) buyers.push(await trader(t, 'BTC'));
    await sql`analyze`.execute(dbh.db);

    const apiPort = await freePort();
    const profileDir = resolve(tmpdir(), 'p2p-bench-profiles');
    if (PROFILE) mkdirSync(profileDir, { recursive: true });
    const api = spawn(
      process.execPath,
      [
        ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        '--import',
        'tsx',
        'apps/api/src/server.ts',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(apiPort), HOST: '127.0.0.1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    children.push(api);
    const barePort = await freePort();
    const bare = spawn(process.execPath, ['bench/bare-server.mjs'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(barePort) },
      stdio: 'ignore',
    });
    children.push(bare);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await waitReady(`${apiUrl}/readyz`, api);
    await waitReady(`${bareUrl}/bare`, bare);

    // Buyer i's k-th order goes to listing (i + k) mod SELLERS: the buyers spread over the listings instead
    // of all queueing on the same row at the same step.
    const orderBody = (b: Trader, k: number) =>
      JSON.stringify(
        buyBody(listings[(buyers.indexOf(b) + k) % listings.length] ?? 0, 100_000, BTC_PRICE, b.wallet.id),
      );
    let next = 0;
    /** Orders the API accepted (200 on POST /buy-orders) during the current measurement. */
    let ordersOk = 0;
    type Ctx = { buyer?: Trader; code?: string; k?: number };
    const buyerOf = (ctx: Ctx): Trader => {
      ctx.buyer ??= buyers[next++ % buyers.length];
      return ctx.buyer as Trader;
    };
    const auth = (b: Trader) => ({ authorization: `Bearer ${b.token}`, 'content-type': 'application/json' });
    const purchase: autocannon.Options['requests'] = [
      {
        method: 'POST',
        path: '/sms/request',
        setupRequest: (req, ctx: Ctx) => {
          const b = buyerOf(ctx);
          return { ...req, headers: auth(b), body: JSON.stringify({ phone: b.phoneE164 }) };
        },
      },
      {
        method: 'GET',
        setupRequest: (req, ctx: Ctx) => ({
          ...req,
          path: `/dev/sms/outbox?phone=${encodeURIComponent(buyerOf(ctx).phoneE164)}`,
        }),
        onResponse: (status, body, ctx: Ctx) => {
          // A failed lookup leaves no code: the verify then fails and counts as a non-2xx answer.
          ctx.code =
            status === 200 ? (JSON.parse(body) as { returnData: { code: string } }).returnData.code : '';
        },
      },
      {
        method: 'POST',
        path: '/sms/verify',
        setupRequest: (req, ctx: Ctx) => {
          const b = buyerOf(ctx);
          return { ...req, headers: auth(b), body: JSON.stringify({ phone: b.phoneE164, code: ctx.code }) };
        },
      },
      {
        method: 'POST',
        path: '/buy-orders',
        setupRequest: (req, ctx: Ctx) => {
          const b = buyerOf(ctx);
          ctx.k = (ctx.k ?? 0) + 1;
          return { ...req, headers: auth(b), body: orderBody(b, ctx.k) };
        },
        onResponse: (status) => {
          if (status === 200) ordersOk++;
        },
      },
    ];
    const bareBody = orderBody(buyers[0] as Trader, 0);
    const measurements: Record<string, (() => Promise<Run>) | undefined> = {
      'bare GET': () => cannon({ url: `${bareUrl}/bare` }),
      'trade list': () => cannon({ url: `${apiUrl}/api/v1/sell-listings?size=20` }),
      'bare POST': () =>
        cannon({
          url: `${bareUrl}/bare`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bareBody,
        }),
      purchase: async () => {
        ordersOk = 0;
        const r = await cannon({ url: apiUrl, requests: purchase });
        return { ...r, orders: ordersOk };
      },
      // The trade list read while purchases write (half the connections each): every order changes a listing's
      // remaining quantity, so the list's cache is dropped on each purchase and refilled by the next read.
      'list+buy': async () => {
        ordersOk = 0;
        const half = Math.max(1, Math.floor(CONNECTIONS / 2));
        const [list, buy] = await Promise.all([
          cannon({ url: `${apiUrl}/api/v1/sell-listings?size=20`, connections: half }),
          cannon({ url: apiUrl, requests: purchase, connections: half }),
        ]);
        return {
          ...list,
          errors: list.errors + buy.errors,
          non2xx: list.non2xx + buy.non2xx,
          orders: ordersOk,
          statuses: { ...list.statuses, ...buy.statuses },
        };
      },
    };
    process.stdout.write(`api on ${apiUrl} (pid ${api.pid}), bare on ${bareUrl}; warming up\n`);
    await smokePurchase(apiUrl, buyers[0] as Trader, orderBody(buyers[0] as Trader, 0));
    // Warm-up: JIT, pools, caches.
    await autocannon({ url: `${apiUrl}/api/v1/sell-listings?size=20`, connections: 8, duration: 2 });
    await autocannon({ url: apiUrl, connections: 8, duration: 2, requests: purchase });
    // The warm-up's orders, codes and notifications give the planner statistics of tables that are in use, as
    // autovacuum's analyze would on a live database: the tables were empty at the analyze above, and a plan
    // made for an empty table (a sequential scan) would be kept for the whole run (bench/README.md).
    await sql`analyze`.execute(dbh.db);

    const rows: string[] = [];
    const ratios: { list: number[]; purchase: number[]; mixed: number[] } = {
      list: [],
      purchase: [],
      mixed: [],
    };
    const totals = { errors: 0, non2xx: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const got: Record<string, Run> = {};
      for (const [name, run] of Object.entries(measurements)) {
        if (!run) continue;
        // BENCH_ONLY=purchase (or 'trade list'): the other measurements are skipped and count as 1/s.
        if (ONLY && !name.includes(ONLY)) {
          got[name] = { rps: 1, p50: 0, p99: 0, errors: 0, non2xx: 0, ok: 0, statuses: {} };
          continue;
        }
        got[name] = await run();
        if (process.env.BENCH_VERBOSE === '1')
          process.stdout.write(`${name}: ${JSON.stringify(got[name])}\n`);
      }
      const fmt = (name: string, r: Run, extra = '') =>
        `round ${round}  ${name.padEnd(10)} ${r.rps.toFixed(0).padStart(6)}/s${extra}  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}${r.non2xx ? ` ${JSON.stringify(r.statuses)}` : ''}`;
      const [bg, tl, bp, pu, mx] = ['bare GET', 'trade list', 'bare POST', 'purchase', 'list+buy'].map(
        (k) => {
          const r = got[k];
          if (!r) throw new Error(`${k} did not run`);
          return r;
        },
      ) as [Run, Run, Run, Run, Run];
      const listRatio = tl.rps / bg.rps;
      const purchaseRate = (pu.orders ?? pu.ok / 4) / DURATION;
      totals.errors += bg.errors + tl.errors + bp.errors + pu.errors + mx.errors;
      totals.non2xx += bg.non2xx + tl.non2xx + bp.non2xx + pu.non2xx + mx.non2xx;
      const purchaseRatio = purchaseRate / bp.rps;
      ratios.list.push(listRatio);
      ratios.purchase.push(purchaseRatio);
      rows.push(
        fmt('bare GET', bg),
        fmt('trade list', tl, ` (${(listRatio * 100).toFixed(1)}% of bare GET)`),
        fmt('bare POST', bp),
        fmt(
          'purchase',
          pu,
          ` requests = ${purchaseRate.toFixed(0)} purchases/s (${(purchaseRatio * 100).toFixed(1)}% of bare POST)`,
        ),
        fmt(
          'list+buy',
          mx,
          ` trade list (${((mx.rps / bg.rps) * 100).toFixed(1)}% of bare GET) beside ${((mx.orders ?? 0) / DURATION).toFixed(0)} purchases/s`,
        ),
      );
      ratios.mixed.push(mx.rps / bg.rps);
      process.stdout.write(`${rows.slice(-5).join('\n')}\n`);
    }
    process.stdout.write(
      `\nserver-side latency by route over the whole run (the API's own /metrics):\n${await routeLatency(apiUrl)}`,
    );
    const pct = (x: number | undefined) => `${((x ?? Number.NaN) * 100).toFixed(1)}%`;
    const spread = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `min ${pct(s[0])} / median ${pct(s[Math.floor(s.length / 2)])} / max ${pct(s[s.length - 1])}`;
    };
    process.stdout.write(
      `\n${CONNECTIONS} connections, ${DURATION} s each, ${ROUNDS} rounds, ${LISTINGS} open listings, ` +
        `purchases over ${SELLERS} listing(s)\n` +
        `trade list: ${spread(ratios.list)} of a bare GET (target >= 30%)\n` +
        `purchase:   ${spread(ratios.purchase)} of a bare POST (target >= 8%)\n` +
        `trade list beside purchases: ${spread(ratios.mixed)} of a bare GET\n` +
        `errors ${totals.errors}, non-2xx ${totals.non2xx} over all measurements (target 0)\n`,
    );
  } finally {
    for (const c of children) await stopChild(c);
    await app.close();
    await dbh.close();
    if (process.env.BENCH_KEEP_DB === '1') process.stdout.write(`kept database ${fresh.name}\n`);
    else await fresh.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
