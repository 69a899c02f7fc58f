import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import type { FastifyZod } from '../../http/types.ts';
import { watcherStatusRows } from '../deposits/index.ts';

/** Latency buckets (seconds): the API answers in milliseconds; anything past 2.5 s is an incident. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of requests no route matched: one series, however many URLs scanners try. */
const UNMATCHED = '(unmatched)';

function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * The metrics of one app instance (DECISIONS §14). Request latency is observed per request; the database
 * figures (orders by status, escrow per coin, timer lag, pool use) are read when Prometheus scrapes, so a
 * scrape shows what every instance sees in the shared database right now. One registry per app, so
 * several apps in one process (tests) never share series.
 */
export function createMetrics(deps: AppDeps): { registry: Registry; observe: Histogram<string> } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const observe = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const db = deps.db;
  new Gauge({
    name: 'p2p_orders',
    help: 'Buy orders by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const r = await sql<{ status: string; n: number }>`
        select status, count(*)::int as n from buy_orders group by status`.execute(db);
      this.reset();
      for (const row of r.rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  new Gauge({
    name: 'p2p_escrow_total',
    help: 'Coins held in escrow per coin (sum of the members escrow accounts, in coins)',
    labelNames: ['coin'],
    registers: [registry],
    async collect() {
      const r = await sql<{ coin: string; total: string }>`
        select coin, sum(balance)::text as total from ledger_accounts where kind = 'escrow' group by coin`.execute(
        db,
      );
      this.reset();
      for (const row of r.rows) this.set({ coin: row.coin }, Number(row.total));
    },
  });
  new Gauge({
    name: 'p2p_order_timer_lag_seconds',
    help:
      'How late the order timers run: age past its deadline of the oldest order still waiting to expire ' +
      '(REQUESTED) or to escalate (PAID); 0 when none is due',
    labelNames: ['timer'],
    registers: [registry],
    async collect() {
      const r = await sql<{ expiry: number | null; escalation: number | null }>`
        select
          (select extract(epoch from now() - min(payment_deadline))::float8 from buy_orders
             where status = 'REQUESTED' and payment_deadline <= now()) as expiry,
          (select extract(epoch from now() - min(release_deadline))::float8 from buy_orders
             where status = 'PAID' and release_deadline <= now()) as escalation`.execute(db);
      const row = r.rows[0];
      this.set({ timer: 'expiry' }, Number(row?.expiry ?? 0));
      this.set({ timer: 'escalation' }, Number(row?.escalation ?? 0));
    },
  });
  new Gauge({
    name: 'p2p_db_pool_connections',
    help: 'PostgreSQL pool connections of this instance: total, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = deps.dbh.poolStats();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  return { registry, observe };
}

/**
 * `chain_lag_blocks{coin}` and `chain_node_up{coin}` (DECISIONS §17), per coin with a watcher, from what the active
 * one stored in the database: every instance reports the same.
 */
function chainGauges(registry: Registry, db: AppDeps['db']): void {
  const chainRows = () => watcherStatusRows(db);
  new Gauge({
    name: 'chain_lag_blocks',
    help: "Blocks between the node's tip and the last block the deposit watcher applied, per coin",
    labelNames: ['coin'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await chainRows()) {
        if (r.height !== null && r.node_height !== null) {
          this.set({ coin: r.coin }, Math.max(0, r.node_height - r.height));
        }
      }
    },
  });
  new Gauge({
    name: 'chain_node_up',
    help: "1 when the coin's node answered the deposit watcher's last call, 0 when it failed",
    labelNames: ['coin'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await chainRows())
        if (r.node_up !== null) this.set({ coin: r.coin }, r.node_up ? 1 : 0);
    },
  });
}

/**
 * GET /metrics (DECISIONS §14): Prometheus text. With METRICS_TOKEN set it needs `Authorization: Bearer
 * <token>`; production without METRICS_TOKEN answers 401 to everyone (the figures tell an outsider the
 * platform's volume). Every request of this app is observed by route pattern (never the raw URL, whose ids
 * and query strings would make a series per request). Called on the root instance before the modules
 * register (not through app.register), so its onResponse hook sees every route.
 */
export function installMetrics(app: FastifyZod, deps: AppDeps): void {
  const { registry, observe } = createMetrics(deps);
  chainGauges(registry, deps.db);
  const token = deps.config.metricsToken;
  const guarded = token !== undefined || deps.config.isProduction;

  app.addHook('onResponse', async (request: FastifyRequest, reply) => {
    observe.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (guarded && (token === undefined || !tokenMatches(request.headers.authorization, token))) {
      throw new AppError('UNAUTHORIZED');
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}
