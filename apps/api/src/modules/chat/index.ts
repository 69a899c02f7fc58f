/* The chat module's front door: order messages and images. Wired by the trade room. */
export { purgeMessagesOf } from './repo.ts';
export { registerChatRoutes } from './routes.ts';
