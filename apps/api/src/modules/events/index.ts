/*
 * The events module's front door: the LISTEN bus, the per-instance stream hub, GET /api/v1/events and the
 * member_events rows other modules record. Wired by the trade room.
 */
export { partsOf, startEventBus } from './bus.ts';
export { EventHub } from './hub.ts';
export { recordMessageEvents, recordOpsEvent } from './repo.ts';
export { pruneEvents, registerEventRoutes } from './routes.ts';
