import { type Coin, pricesResponse } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import { publicCache } from '../../http/public-cache.ts';
import type { FastifyZod } from '../../http/types.ts';
import { createPriceService, type PriceService } from './service.ts';

// One price service per app (its cache and in-flight call shared by GET /api/v1/prices and the listing
// edit's market check), made on first use.
const services = new WeakMap<AppDeps, PriceService>();

/** The app's price service (DECISIONS §7), created once per `deps` with `log` for its warnings. */
export function priceServiceOf(deps: AppDeps, log: FastifyBaseLogger): PriceService {
  let s = services.get(deps);
  if (!s) {
    s = createPriceService({
      source: deps.config.prices.provider,
      upstreamUrl: deps.config.prices.upstreamUrl,
      file: deps.config.prices.file,
      redis: deps.redis,
      log,
    });
    services.set(deps, s);
  }
  return s;
}

/**
 * The market price of `coin` in whole won, or null when no usable price is known (the provider failing
 * past the cache): the listing edit treats null as "needs review".
 */
export async function marketPriceKrw(
  deps: AppDeps,
  log: FastifyBaseLogger,
  coin: Coin,
): Promise<number | null> {
  try {
    const r = await priceServiceOf(deps, log).get();
    return r.prices.find((p) => p.coin === coin)?.krw ?? null;
  } catch {
    return null;
  }
}

/** Seconds a browser or proxy may reuse GET /api/v1/prices. */
export const PRICES_MAX_AGE_SEC = 30;

/** GET /api/v1/prices (DECISIONS §7): public, no token. 503 PRICE_UNAVAILABLE when nothing usable is cached. */
export default async function pricesRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const prices = priceServiceOf(deps, app.log);
  if (deps.config.isProduction && deps.config.prices.provider === 'static') {
    // DECISIONS §7: the static provider is for offline demos; say so loudly rather than serve it quietly.
    app.log.warn('PRICE_PROVIDER=static in production: /api/v1/prices serves fixed prices from a file');
  }
  // The same for everyone and refreshed every 60 s: browsers and proxies may reuse it briefly (DECISIONS §13).
  await publicCache(app, PRICES_MAX_AGE_SEC);
  app.get(
    '/api/v1/prices',
    { schema: { tags: ['prices'], response: okResponse(pricesResponse) } },
    async () => ok(await prices.get()),
  );
}
