/* The health module's front door: liveness, readiness and the lifecycle flag the drain sets. */
export { default as healthRoutes, type Lifecycle } from './routes.ts';
