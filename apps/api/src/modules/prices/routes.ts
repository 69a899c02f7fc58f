import { pricesResponse } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import { publicCache } from '../../http/public-cache.ts';
import type { FastifyZod } from '../../http/types.ts';
import { createPriceService } from './service.ts';

/** Seconds a browser or proxy may reuse GET /api/v1/prices. */
export const PRICES_MAX_AGE_SEC = 30;

/** GET /api/v1/prices (DECISIONS §7): public, no token. 503 PRICE_UNAVAILABLE when nothing usable is cached. */
export default async function pricesRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const prices = createPriceService({
    source: deps.config.prices.provider,
    upstreamUrl: deps.config.prices.upstreamUrl,
    file: deps.config.prices.file,
    redis: deps.redis,
    log: app.log,
  });
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
