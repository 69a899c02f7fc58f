/*
 * The deposits module's front door: the chain watchers (DECISIONS §17), their status for the metrics, and its
 * operator routes. Other modules and app.ts import only this file (tests may also use test-kit.ts).
 */
export { depositOpsRoutes } from './ops-routes.ts';
export { watcherStatusRows } from './queries.ts';
export { createDepositWatchers, type DepositWatchers } from './service.ts';
