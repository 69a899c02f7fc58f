import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COINS, type CoinPrice, coinPrice, coinSpec, type PriceSource } from '@p2p/contract';
import { z } from 'zod';
import { pctFromPercent, pctFromRate, wonFromProviderNumber } from './convert.ts';

/** Fetches the current KRW prices of every coin in COINS order; throws on any failure. */
export type PriceProvider = () => Promise<CoinPrice[]>;

export interface ProviderOptions {
  source: PriceSource;
  /** Replaces the provider's public base URL (tests point it at a local fake upstream). */
  upstreamUrl?: string;
  /** JSON file of the static provider; the bundled static-prices.json when absent. */
  file?: string;
  timeoutMs: number;
}

export const COINGECKO_BASE = 'https://api.coingecko.com/api/v3';
export const UPBIT_BASE = 'https://api.upbit.com/v1';
export const BUNDLED_STATIC_FILE = join(dirname(fileURLToPath(import.meta.url)), 'static-prices.json');

const coingeckoAnswer = z.record(
  z.string(),
  z.object({ krw: z.number(), krw_24h_change: z.number().nullable().optional() }),
);
const upbitAnswer = z.array(
  z.object({
    market: z.string(),
    trade_price: z.number(),
    signed_change_rate: z.number().nullable().optional(),
  }),
);
const staticFile = z.object({ prices: z.array(coinPrice) });

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`price upstream answered ${res.status}`);
  return res.json();
}

function base(o: ProviderOptions, fallback: string): string {
  return (o.upstreamUrl ?? fallback).replace(/\/+$/, '');
}

/**
 * CoinGecko simple price in KRW with the 24 h change (DECISIONS §7), for the registry's `coingeckoId` of
 * each coin (bitcoin, ethereum, ripple, tron).
 */
function coingecko(o: ProviderOptions): PriceProvider {
  const ids = COINS.map((c) => coinSpec(c).prices.coingeckoId).join(',');
  const url = `${base(o, COINGECKO_BASE)}/simple/price?ids=${ids}&vs_currencies=krw&include_24hr_change=true`;
  return async () => {
    const body = coingeckoAnswer.parse(await getJson(url, o.timeoutMs));
    return COINS.map((coin) => {
      const p = body[coinSpec(coin).prices.coingeckoId];
      if (!p) throw new Error(`coingecko answer lacks ${coin}`);
      return { coin, krw: wonFromProviderNumber(p.krw), change24hPct: pctFromPercent(p.krw_24h_change) };
    });
  };
}

/**
 * Upbit KRW tickers, the registry's `upbitMarket` of each coin (KRW-BTC, KRW-ETH, KRW-XRP, KRW-TRX):
 * trade_price and signed_change_rate (DECISIONS §7).
 */
function upbit(o: ProviderOptions): PriceProvider {
  const markets = COINS.map((c) => coinSpec(c).prices.upbitMarket).join(',');
  const url = `${base(o, UPBIT_BASE)}/ticker?markets=${markets}`;
  return async () => {
    const rows = upbitAnswer.parse(await getJson(url, o.timeoutMs));
    return COINS.map((coin) => {
      const market = coinSpec(coin).prices.upbitMarket;
      const t = rows.find((r) => r.market === market);
      if (!t) throw new Error(`upbit answer lacks ${market}`);
      return {
        coin,
        krw: wonFromProviderNumber(t.trade_price),
        change24hPct: pctFromRate(t.signed_change_rate),
      };
    });
  };
}

/**
 * Prices from a JSON file `{prices: [{coin, krw, change24hPct}]}` for offline demos and tests (DECISIONS §7).
 * Read on every (uncached) call, so an edited file shows within the cache time.
 */
function staticPrices(o: ProviderOptions): PriceProvider {
  const file = o.file ?? BUNDLED_STATIC_FILE;
  return async () => {
    const parsed = staticFile.parse(JSON.parse(await readFile(file, 'utf8')));
    return COINS.map((coin) => {
      const p = parsed.prices.find((x) => x.coin === coin);
      if (!p) throw new Error(`static price file lacks ${coin}`);
      return p;
    });
  };
}

/** The provider named by PRICE_PROVIDER (DECISIONS §10). */
export function createProvider(o: ProviderOptions): PriceProvider {
  if (o.source === 'coingecko') return coingecko(o);
  if (o.source === 'upbit') return upbit(o);
  return staticPrices(o);
}
