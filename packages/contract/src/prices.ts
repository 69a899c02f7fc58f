import { z } from 'zod';
import { COINS } from './enums.ts';

/** Where GET /api/v1/prices got its numbers (DECISIONS §7, §10 PRICE_PROVIDER). */
export const PRICE_SOURCES = ['coingecko', 'upbit', 'static'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** One coin's price: whole won and the 24 h change in percent as a decimal string ("-1.23"). */
export const coinPrice = z.object({
  coin: z.enum(COINS),
  krw: z.number().int(),
  change24hPct: z.string().regex(/^-?\d+(\.\d+)?$/),
});
export type CoinPrice = z.infer<typeof coinPrice>;

/**
 * GET /api/v1/prices answer (DECISIONS §7): every coin of SPEC §9 in COINS order; `updatedAt` is when
 * the provider answered (ISO 8601); `stale` is true when that is older than the 60 s cache because the
 * provider is failing (served up to 10 minutes, then 503 PRICE_UNAVAILABLE).
 */
export const pricesResponse = z.object({
  prices: z.array(coinPrice),
  source: z.enum(PRICE_SOURCES),
  updatedAt: z.string(),
  stale: z.boolean(),
});
export type PricesResponse = z.infer<typeof pricesResponse>;
