import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COINS, type PricesResponse } from '@p2p/contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/helpers.ts';
import { pctFromPercent, pctFromRate, wonFromProviderNumber } from './convert.ts';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.ts';
import { createPriceService, PRICE_FRESH_MS, PRICE_STALE_MAX_MS } from './service.ts';

const log = pino({ level: 'silent' });
let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => {
  vi.useRealTimers();
  fake.mode = 'ok';
  fake.hits.length = 0;
});

async function getPricesOverHttp(env: Record<string, string>) {
  const t = await createTestApp(env, { skipStartupTasks: true });
  try {
    return await t.call<PricesResponse>('GET', '/api/v1/prices');
  } finally {
    await t.close();
  }
}

describe('GET /api/v1/prices over HTTP', () => {
  it('coingecko: 503 PRICE_UNAVAILABLE while failing with nothing cached, then whole won in coin order', async () => {
    const t = await createTestApp(
      { PRICE_PROVIDER: 'coingecko', PRICE_UPSTREAM_URL: fake.url },
      { skipStartupTasks: true },
    );
    try {
      fake.mode = 'error';
      const down = await t.call('GET', '/api/v1/prices');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ returnCode: 503, returnMessage: 'PRICE_UNAVAILABLE', returnData: null });

      fake.mode = 'ok';
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 60_000); // past the retry pause that follows a failure
      const r = await t.call<PricesResponse>('GET', '/api/v1/prices');
      expect(r.status).toBe(200);
      expect(r.body.returnData).toMatchObject({ source: 'coingecko', stale: false });
      expect(r.body.returnData.prices).toEqual([
        { coin: 'BTC', krw: 140_123_457, change24hPct: '-1.23' },
        { coin: 'ETH', krw: 5_012_346, change24hPct: '2.50' },
        { coin: 'XRP', krw: 3012, change24hPct: '0.00' },
        { coin: 'TRX', krw: 402, change24hPct: '0.00' },
      ]);
      // Upbit is tried after CoinGecko (DECISIONS §7); both failed the first time.
      expect(fake.hits).toEqual(['/simple/price', '/ticker', '/simple/price']);
    } finally {
      await t.close();
    }
  });

  it('upbit: trade_price and signed_change_rate as percent', async () => {
    const r = await getPricesOverHttp({ PRICE_PROVIDER: 'upbit', PRICE_UPSTREAM_URL: fake.url });
    expect(r.status).toBe(200);
    expect(r.body.returnData.source).toBe('upbit');
    expect(r.body.returnData.prices).toEqual([
      { coin: 'BTC', krw: 141_000_000, change24hPct: '-1.23' },
      { coin: 'ETH', krw: 5_100_000, change24hPct: '4.56' },
      { coin: 'XRP', krw: 3050, change24hPct: '0.00' },
      { coin: 'TRX', krw: 400, change24hPct: '10.00' },
    ]);
    expect(fake.hits).toEqual(['/ticker']);
  });

  it('static: the bundled file by default, without any upstream', async () => {
    const r = await getPricesOverHttp({ PRICE_PROVIDER: 'static' });
    expect(r.status).toBe(200);
    expect(r.body.returnData.source).toBe('static');
    expect(r.body.returnData.prices.map((p) => p.coin)).toEqual(COINS);
    expect(r.body.returnData.prices[0]?.krw).toBe(140_000_000);
    expect(fake.hits).toEqual([]);
  });
});

describe('static provider', () => {
  it('reads PRICE_FILE in coin order and refuses a broken file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-'));
    const file = join(dir, 'p.json');
    writeFileSync(
      file,
      JSON.stringify({
        prices: [
          { coin: 'TRX', krw: 410, change24hPct: '-0.50' },
          { coin: 'BTC', krw: 139_000_000, change24hPct: '1.00' },
          { coin: 'XRP', krw: 2990, change24hPct: '0.10' },
          { coin: 'ETH', krw: 4_900_000, change24hPct: '-2.00' },
        ],
      }),
    );
    const custom = await createPriceService({ source: 'static', file, redis: null, log }).get();
    expect(custom.source).toBe('static');
    expect(custom.prices[0]).toEqual({ coin: 'BTC', krw: 139_000_000, change24hPct: '1.00' });
    expect(custom.prices[3]).toEqual({ coin: 'TRX', krw: 410, change24hPct: '-0.50' });

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ prices: [{ coin: 'BTC', krw: 1.5, change24hPct: '0' }] }));
    await expect(
      createPriceService({ source: 'static', file: bad, redis: null, log }).get(),
    ).rejects.toMatchObject({
      code: 'PRICE_UNAVAILABLE',
    });
    const missing = join(dir, 'missing.json');
    await expect(
      createPriceService({ source: 'static', file: missing, redis: null, log }).get(),
    ).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE' });
  });
});

describe('price cache', () => {
  const service = (o: { timeoutMs?: number } = {}) =>
    createPriceService({ source: 'coingecko', upstreamUrl: fake.url, redis: null, log, ...o });

  it('answers from the cache for 60 s: the upstream is called once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = service();
    const first = await s.get();
    const parallel = await Promise.all([s.get(), s.get(), s.get()]);
    vi.setSystemTime(Date.now() + PRICE_FRESH_MS - 1_000);
    const later = await s.get();
    expect(fake.hits).toHaveLength(1);
    for (const r of [...parallel, later]) expect(r).toEqual(first);

    vi.setSystemTime(Date.now() + 2_000);
    const refreshed = await s.get();
    expect(fake.hits).toHaveLength(2);
    expect(refreshed.stale).toBe(false);
    expect(refreshed.updatedAt > first.updatedAt).toBe(true);
  });

  it('serves the last answer stale while the provider fails, up to 10 minutes, then 503', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = service();
    const good = await s.get();
    fake.mode = 'error';
    vi.setSystemTime(Date.now() + PRICE_FRESH_MS + 1_000);
    const stale = await s.get();
    expect(stale).toEqual({ ...good, stale: true });
    expect(fake.hits).toEqual(['/simple/price', '/simple/price', '/ticker']);

    vi.setSystemTime(Date.now() + PRICE_STALE_MAX_MS);
    await expect(s.get()).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE', status: 503 });

    fake.mode = 'ok';
    vi.setSystemTime(Date.now() + 60_000);
    expect((await s.get()).stale).toBe(false);
  });

  it('coingecko failing: Upbit answers at once as the second source, and CoinGecko is asked first again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = service();
    fake.mode = 'coingeckoDown';
    const r = await s.get();
    expect(r).toMatchObject({ source: 'upbit', stale: false });
    expect(r.prices[0]).toEqual({ coin: 'BTC', krw: 141_000_000, change24hPct: '-1.23' });
    expect(fake.hits).toEqual(['/simple/price', '/ticker']);

    fake.mode = 'ok';
    vi.setSystemTime(Date.now() + PRICE_FRESH_MS + 1_000);
    expect(await s.get()).toMatchObject({ source: 'coingecko', stale: false });
    expect(fake.hits).toEqual(['/simple/price', '/ticker', '/simple/price']);
  });

  it('a hanging upstream times out (AbortSignal) and junk answers are refused', async () => {
    fake.mode = 'hang';
    const started = performance.now();
    await expect(service({ timeoutMs: 200 }).get()).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE' });
    expect(performance.now() - started).toBeLessThan(5_000);
    fake.mode = 'garbage';
    await expect(service().get()).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE' });
  });

  const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  it.runIf(redisUrl)('with Redis, API instances share one cached answer', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl ?? '');
    const cacheKey = `test:prices:${randomBytes(6).toString('hex')}`;
    try {
      const a = createPriceService({ source: 'coingecko', upstreamUrl: fake.url, redis, log, cacheKey });
      const b = createPriceService({ source: 'coingecko', upstreamUrl: fake.url, redis, log, cacheKey });
      const first = await a.get();
      expect(await b.get()).toEqual(first);
      expect(fake.hits).toHaveLength(1);
      expect(await redis.pttl(cacheKey)).toBeGreaterThan(PRICE_STALE_MAX_MS - 10_000);
    } finally {
      await redis.del(cacheKey);
      await redis.quit();
    }
  });

  it.runIf(redisUrl)('with Redis, a stale cache is refreshed by one instance, not by each', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl ?? '');
    const cacheKey = `test:prices:${randomBytes(6).toString('hex')}`;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const instances = [1, 2, 3, 4].map(() =>
        createPriceService({ source: 'coingecko', upstreamUrl: fake.url, redis, log, cacheKey }),
      );
      const first = await instances[0]?.get();
      vi.setSystemTime(Date.now() + PRICE_FRESH_MS + 1_000);
      const answers = await Promise.all(instances.map((s) => s.get()));
      expect(fake.hits).toHaveLength(2);
      for (const a of answers) expect(a.stale).toBe(false);
      // The others answered the cached prices while the one refreshed; the next request anywhere sees the new ones.
      expect(answers.filter((a) => a.updatedAt === first?.updatedAt).length).toBeGreaterThanOrEqual(3);
      const next = await instances[3]?.get();
      expect((next?.updatedAt ?? '') > (first?.updatedAt ?? '')).toBe(true);
      expect(fake.hits).toHaveLength(2);
    } finally {
      await redis.del(cacheKey, `${cacheKey}:refreshing`);
      await redis.quit();
    }
  });
});

describe('provider number conversion', () => {
  it('rounds won to whole numbers and refuses implausible prices', () => {
    expect(wonFromProviderNumber(140_123_456.5)).toBe(140_123_457);
    expect(wonFromProviderNumber(399.49)).toBe(399);
    for (const bad of [0, -5, 0.2, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => wonFromProviderNumber(bad)).toThrow(RangeError);
    }
  });

  it('formats changes with two decimals, never -0.00', () => {
    expect(pctFromPercent(-1.235)).toMatch(/^-1.2[34]$/);
    expect(pctFromPercent(-0.001)).toBe('0.00');
    expect(pctFromPercent(null)).toBe('0.00');
    expect(pctFromRate(-0.0123)).toBe('-1.23');
    expect(pctFromRate(0.1)).toBe('10.00');
    expect(pctFromRate(undefined)).toBe('0.00');
  });
});
