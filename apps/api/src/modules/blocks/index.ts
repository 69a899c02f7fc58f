/*
 * The blocks module's front door (DECISIONS §19 "Counterparts"): members blocking members. The orders module
 * asks it at purchase (assertNotBlocked), the listings module for a blocker's trade list (blockedIdsOf), the
 * records module's purge drops a purged member's blocks (deleteBlocksOf). Other modules import only this file.
 */
export { blockedIdsOf, deleteBlocksOf } from './repo.ts';
export { default as blockRoutes } from './routes.ts';
export { assertNotBlocked } from './service.ts';
