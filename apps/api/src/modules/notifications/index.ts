/*
 * The notifications module's front door: the notification rows other modules record, the routes, Web Push
 * keys and the after-commit dispatcher. Wired by the trade room.
 */
export { loadVapidKeys, type VapidKeys } from './push.ts';
export { createPushNetwork, type PushNetwork } from './push-network.ts';
export { notifyDepositCredited, notifyMessageOnce, notifyWithdrawal, purgeNotificationsOf } from './repo.ts';
export { registerNotificationRoutes } from './routes.ts';
export { createDispatcher } from './service.ts';
