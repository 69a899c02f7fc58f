/* The prices module's front door: GET /api/v1/prices, the market price of a coin, the bundled static file. */
export { BUNDLED_STATIC_FILE } from './providers.ts';
export { default as pricesRoutes, marketPriceKrw } from './routes.ts';
export { createPriceService, type PriceService } from './service.ts';
