/* The trade room's front door (DECISIONS §12): one plugin that wires chat, events, notifications and pause. */
export { default as tradeRoomRoutes } from './routes.ts';
