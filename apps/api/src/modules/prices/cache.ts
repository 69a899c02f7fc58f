import { type CoinPrice, coinPrice, PRICE_SOURCES, type PriceSource } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** The last good provider answer and when it arrived (epoch ms). */
export interface PriceSnapshot {
  prices: CoinPrice[];
  source: PriceSource;
  fetchedAtMs: number;
}

/** Where the last good answer is kept: Redis when configured (shared by API instances), else memory. */
export interface PriceCache {
  get(): Promise<PriceSnapshot | null>;
  set(s: PriceSnapshot, ttlMs: number): Promise<void>;
}

const snapshotSchema = z.object({
  prices: z.array(coinPrice),
  source: z.enum(PRICE_SOURCES),
  fetchedAtMs: z.number().int(),
});

/** An in-process cache; the entry lives until replaced (the service decides freshness by fetchedAtMs). */
export function memoryCache(): PriceCache {
  let snap: PriceSnapshot | null = null;
  return {
    get: async () => snap,
    set: async (s) => {
      snap = s;
    },
  };
}

/**
 * A Redis cache under `key`, expiring with the stale window. A Redis failure reads as a miss and is
 * logged: prices are not worth failing a request over a cache outage.
 */
export function redisCache(redis: Redis, key: string, log: FastifyBaseLogger): PriceCache {
  return {
    get: async () => {
      try {
        const raw = await redis.get(key);
        if (!raw) return null;
        const parsed = snapshotSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch (err) {
        log.warn({ err }, 'price cache read failed');
        return null;
      }
    },
    set: async (s, ttlMs) => {
      try {
        await redis.set(key, JSON.stringify(s), 'PX', ttlMs);
      } catch (err) {
        log.warn({ err }, 'price cache write failed');
      }
    },
  };
}
