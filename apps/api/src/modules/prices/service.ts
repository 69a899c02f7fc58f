import type { PriceSource, PricesResponse } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors/index.ts';
import { memoryCache, type PriceCache, type PriceSnapshot, redisCache } from './cache.ts';
import { createProvider, type PriceProvider } from './providers.ts';

/** Fresh for 60 s, then refetched; served stale up to 10 minutes while the provider fails (DECISIONS §7). */
export const PRICE_FRESH_MS = 60_000;
export const PRICE_STALE_MAX_MS = 600_000;
/** After a failed fetch, stale answers are served without asking the provider again for this long. */
export const PRICE_RETRY_AFTER_MS = 10_000;
export const PRICE_TIMEOUT_MS = 5_000;

export interface PriceServiceOptions {
  source: PriceSource;
  upstreamUrl?: string;
  file?: string;
  redis: Redis | null;
  log: FastifyBaseLogger;
  /** Redis key of the shared cache (tests give each instance its own). */
  cacheKey?: string;
  timeoutMs?: number;
  /** Replaces the provider (tests). */
  provider?: PriceProvider;
}

export interface PriceService {
  /** GET /api/v1/prices: the cached answer, refreshed when older than 60 s. Throws PRICE_UNAVAILABLE (503). */
  get(): Promise<PricesResponse>;
}

function answer(s: PriceSnapshot, stale: boolean): PricesResponse {
  return { prices: s.prices, source: s.source, updatedAt: new Date(s.fetchedAtMs).toISOString(), stale };
}

/**
 * The price service of DECISIONS §7. Concurrent requests on one instance share one upstream call; across
 * instances the Redis cache and a refresh lock (when Redis is configured) keep the upstream rate at about
 * one call a minute for the whole cluster. There is no timer: a refresh happens when a request finds the
 * cache older than 60 s, so nothing runs per instance in the background.
 */
export function createPriceService(o: PriceServiceOptions): PriceService {
  // CoinGecko first and Upbit as the automatic second source (DECISIONS §7); upbit and static stand alone.
  const chain: PriceSource[] = o.source === 'coingecko' ? ['coingecko', 'upbit'] : [o.source];
  const providers: { source: PriceSource; fetch: PriceProvider }[] = o.provider
    ? [{ source: o.source, fetch: o.provider }]
    : chain.map((source) => ({
        source,
        fetch: createProvider({
          source,
          upstreamUrl: o.upstreamUrl,
          file: o.file,
          timeoutMs: o.timeoutMs ?? PRICE_TIMEOUT_MS,
        }),
      }));
  const cache: PriceCache = o.redis
    ? redisCache(o.redis, o.cacheKey ?? `p2p:prices:v1:${o.source}`, o.log)
    : memoryCache();
  let inflight: Promise<PriceSnapshot> | null = null;
  let lastFailureMs = Number.NEGATIVE_INFINITY;

  const lockKey = `${o.cacheKey ?? `p2p:prices:v1:${o.source}`}:refreshing`;
  const lockMs = (o.timeoutMs ?? PRICE_TIMEOUT_MS) + 1_000;
  /**
   * DECISIONS §14: one upstream call per refresh across all instances. The instance that sets the Redis
   * key (NX, expiring after the fetch timeout) fetches; the others keep serving the cached answer. Without
   * Redis, or when Redis fails, every instance fetches for itself (harmless: one call a minute each).
   */
  async function claimRefresh(): Promise<boolean> {
    if (!o.redis) return true;
    try {
      return (await o.redis.set(lockKey, '1', 'PX', lockMs, 'NX')) === 'OK';
    } catch (err) {
      o.log.warn({ err }, 'price refresh lock failed; fetching anyway');
      return true;
    }
  }

  /** The first source of the chain that answers; the answer names the source it came from. */
  async function fetchFirst(): Promise<PriceSnapshot> {
    let failure: unknown = new Error('no price source');
    for (const p of providers) {
      try {
        return { prices: await p.fetch(), source: p.source, fetchedAtMs: Date.now() };
      } catch (err) {
        failure = err;
        if (p !== providers.at(-1))
          o.log.warn({ err, source: p.source }, 'price source failed; trying the next');
      }
    }
    throw failure;
  }

  async function refresh(): Promise<PriceSnapshot> {
    const snap = await fetchFirst();
    await cache.set(snap, PRICE_STALE_MAX_MS);
    return snap;
  }

  return {
    async get() {
      const cached = await cache.get();
      const now = Date.now();
      const age = cached ? now - cached.fetchedAtMs : Number.POSITIVE_INFINITY;
      if (cached && age < PRICE_FRESH_MS) return answer(cached, false);
      const usable = cached && age < PRICE_STALE_MAX_MS ? cached : null;
      if (usable && now - lastFailureMs < PRICE_RETRY_AFTER_MS) return answer(usable, true);
      // Another instance is fetching right now: its answer lands in the shared cache within the timeout,
      // and until then the last one is still the current price, not a failure.
      if (usable && !inflight && !(await claimRefresh())) return answer(usable, false);
      try {
        inflight ??= refresh().finally(() => {
          inflight = null;
        });
        return answer(await inflight, false);
      } catch (err) {
        lastFailureMs = Date.now();
        o.log.warn({ err, source: o.source }, 'price provider failed');
        if (usable) return answer(usable, true);
        throw new AppError('PRICE_UNAVAILABLE');
      }
    },
  };
}
