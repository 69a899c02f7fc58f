/**
 * Statements per request of the hot paths (issue 15): builds the API in process on a fresh PostgreSQL
 * database, counts every statement the pg driver sends (pg.Client.prototype.query wrapped) while one buyer
 * makes one purchase (POST /sms/request, GET /dev/sms/outbox, POST /sms/verify, POST /buy-orders) and one
 * trade-list page is read, and prints the count and the statements of each request. Not a test.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/statements.ts   # BENCH_SQL=1 prints the SQL
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import {
  BTC_PRICE,
  buyBody,
  openListing,
  operator,
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

const seen: string[] = [];
const original = pg.Client.prototype.query;
// Counts every statement the API sends: one wrapper over all overloads of the driver's query, forwarding
// whatever it is given (defineProperty + Reflect.apply need no cast of the overloaded signature).
Object.defineProperty(pg.Client.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function query(this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    seen.push(typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? String(q)));
    return Reflect.apply(original, this, args);
  },
});

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'stmts');
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    ORDER_TIMER_INTERVAL_MS: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...devXpubs(),
    DATABASE_URL: fresh.url,
    // the second purchase follows the first at once
    SMS_RESEND_COOLDOWN_SEC: '0',
  });
  const dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  try {
    const call = async (method: string, url: string, o: { body?: unknown; token?: string } = {}) => {
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
    };
    const t = { app, config, call } as unknown as TestApp;
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '100', 'Park Younghee');
    const listing = await openListing(t, seller, op, {
      minQty: '0.001',
      maxQty: '100',
      unitPriceKrw: BTC_PRICE,
    });
    const buyer = await trader(t, 'BTC');
    // settle the app's own start-up reads, then count request by request
    await new Promise((r) => setTimeout(r, 200));
    let total = 0;
    const step = async (name: string, method: string, url: string, body?: unknown) => {
      seen.length = 0;
      const res = await call(method, url, { body, token: buyer.token });
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      // background work of the request (notification dispatch) lands after the answer
      await new Promise((r) => setTimeout(r, 100));
      const n = seen.length;
      if (name !== 'trade list') total += n;
      process.stdout.write(`${name.padEnd(16)} ${String(n).padStart(3)} statements\n`);
      if (process.env.BENCH_SQL === '1') {
        for (const s of seen) process.stdout.write(`    ${s.replace(/\s+/g, ' ').slice(0, 160)}\n`);
      }
      return res.body as { returnData: { code?: string } };
    };
    for (let i = 0; i < 2; i++) {
      process.stdout.write(`purchase ${i + 1}:\n`);
      total = 0;
      await step('sms request', 'POST', '/sms/request', { phone: buyer.phoneE164 });
      const out = await step('outbox', 'GET', `/dev/sms/outbox?phone=${encodeURIComponent(buyer.phoneE164)}`);
      await step('sms verify', 'POST', '/sms/verify', { phone: buyer.phoneE164, code: out.returnData.code });
      await step('buy order', 'POST', '/buy-orders', buyBody(listing, 100_000, BTC_PRICE, buyer.wallet.id));
      process.stdout.write(`purchase total   ${String(total).padStart(3)} statements\n`);
    }
    await step('trade list', 'GET', '/api/v1/sell-listings?size=20');
  } finally {
    await app.close();
    await dbh.close();
    await fresh.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
