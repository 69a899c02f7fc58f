/* The prices module's front door: GET /api/v1/prices and the bundled static price file. */
export { BUNDLED_STATIC_FILE } from './providers.ts';
export { default as pricesRoutes } from './routes.ts';
export { createPriceService, type PriceService } from './service.ts';
