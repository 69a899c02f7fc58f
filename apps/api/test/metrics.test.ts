import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bip84 from '../src/chains/vectors/bip84.json' with { type: 'json' };
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from '../src/modules/orders/test-kit.ts';
import { createTestApp, onPostgres, type TestApp } from './helpers.ts';

/** GET /metrics (DECISIONS §14) on both databases: the guard, route labels, and the database figures. */
const TOKEN = 'metrics-token-0123456789';

/** The value of the first sample line whose name and labels contain every part of `match`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, ORDER_TIMER_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('needs the bearer METRICS_TOKEN when one is set', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN.replace('0', 'x')}` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await scrape()).toMatch(/^# HELP /m);
  });

  it('labels latency by route pattern and status, never by raw URL', async () => {
    await t.call('GET', '/api/v1/sell-listings?page=1&size=5');
    await t.call('GET', '/my/sell/987654');
    await t.call('GET', '/no/such/path-4242');
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/sell-listings',
        status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: '/my/sell/:id', status_code: '401' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('4242');
    expect(text).not.toContain('page=1');
  });

  it('counts orders by status, escrow per coin and how late the expiry timer is', async () => {
    const op = await operator(t);
    const { buyer, id } = await btcMarket(t, op);
    const before = await scrape();
    expect(sample(before, 'p2p_escrow_total', { coin: 'BTC' })).toBe(1);
    const requested = sample(before, 'p2p_orders', { status: 'REQUESTED' }) ?? 0;
    expect(sample(before, 'p2p_order_timer_lag_seconds', { timer: 'expiry' })).toBe(0);

    const r = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(r.status).toBe(200);
    // The timers are off in this app: an order two minutes past its payment deadline waits, and the gauge says so.
    await sql`update buy_orders set payment_deadline = now() - interval '120 seconds' where id = ${r.body.returnData.orderId}`.execute(
      t.app.deps.db,
    );
    const after = await scrape();
    expect(sample(after, 'p2p_orders', { status: 'REQUESTED' })).toBe(requested + 1);
    expect(sample(after, 'p2p_escrow_total', { coin: 'BTC' })).toBe(1);
    expect(sample(after, 'p2p_order_timer_lag_seconds', { timer: 'expiry' })).toBeGreaterThanOrEqual(120);
    expect(sample(after, 'p2p_order_timer_lag_seconds', { timer: 'escalation' })).toBe(0);
  });

  it.skipIf(!onPostgres)('reports the pool of this instance on PostgreSQL', async () => {
    const text = await scrape();
    expect(sample(text, 'p2p_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    // A scrape's own queries wait while the pool opens their connections, so `waiting` may be above 0 here.
    expect(sample(text, 'p2p_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'p2p_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
  });
});

describe('GET /metrics in production', () => {
  const PRODUCTION = {
    NODE_ENV: 'production',
    JWT_SECRET: 'p'.repeat(40),
    SIGNER_TOKEN: 's'.repeat(40),
    SMS_PROVIDER: 'console',
    XPUB_BTC: bip84.accountZpub,
    XPUB_ETH: bip84.accountZpub,
    XPUB_XRP: bip84.accountZpub,
    XPUB_TRX: bip84.accountZpub,
  };
  let open: TestApp;
  beforeAll(async () => {
    open = await createTestApp(PRODUCTION);
  });
  afterAll(async () => {
    await open?.close();
  });

  it('answers 401 to everyone when METRICS_TOKEN is not set', async () => {
    expect((await open.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const guess = await open.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer undefined' },
    });
    expect(guess.statusCode).toBe(401);
  });
});
