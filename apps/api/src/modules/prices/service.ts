import type { PriceSource, PricesResponse } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../http/errors.ts';
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
 * instances the Redis cache (when configured) keeps the upstream rate at about one call a minute each.
 */
export function createPriceService(o: PriceServiceOptions): PriceService {
  const provider =
    o.provider ??
    createProvider({
      source: o.source,
      upstreamUrl: o.upstreamUrl,
      file: o.file,
      timeoutMs: o.timeoutMs ?? PRICE_TIMEOUT_MS,
    });
  const cache: PriceCache = o.redis
    ? redisCache(o.redis, o.cacheKey ?? `p2p:prices:v1:${o.source}`, o.log)
    : memoryCache();
  let inflight: Promise<PriceSnapshot> | null = null;
  let lastFailureMs = Number.NEGATIVE_INFINITY;

  async function refresh(): Promise<PriceSnapshot> {
    const snap: PriceSnapshot = { prices: await provider(), source: o.source, fetchedAtMs: Date.now() };
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
