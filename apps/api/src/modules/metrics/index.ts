/* The metrics module's front door: GET /metrics and the request histogram. */
export { installMetrics } from './routes.ts';
