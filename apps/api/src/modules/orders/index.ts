/*
 * The orders module's front door: buy orders and the trade protocol, the order timers, the escrow invariants
 * of the ledger check, and its operator routes. Other modules import only this file (their tests may also
 * use test-kit.ts).
 */
export { escrowInvariants } from './invariants.ts';
export { orderOpsRoutes } from './ops-routes.ts';
export { orderStanding } from './queries.ts';
export { default as orderRoutes } from './routes.ts';
export { startOrderTimers } from './timers.ts';
export { settleOrder } from './transitions.ts';
