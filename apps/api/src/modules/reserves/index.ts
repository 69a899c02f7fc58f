/*
 * The reserves module's front door: proof of reserves (DECISIONS §20). Snapshots of every member's liabilities as a
 * Merkle-sum tree (packages/reserves), the public figures, each member's proof, the daily job and the operator
 * calls. Other modules and app.ts import only this file.
 */

export { type MessageSigner, nodeReserves } from './node-reserves.ts';
export { reservesOpsRoutes } from './ops-routes.ts';
export { declaredReserves, firstKnown } from './repo-declarations.ts';
export { type ReservesReader, type ReservesReading, takeSnapshot } from './repo-snapshot.ts';
export { default as reservesRoutes } from './routes.ts';
export { startReserveSnapshots } from './service.ts';
export { reservesReader } from './wiring.ts';
