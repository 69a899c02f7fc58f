import {
  cursorField,
  notificationPage,
  notificationReadBody,
  notificationSettings,
  pushSubscriptionBody,
  pushUnsubscribeBody,
  unreadCount,
  vapidPublicKey,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { checkEndpoint, type VapidKeys } from './push.ts';
import {
  deleteSubscription,
  getSettings,
  listNotifications,
  markRead,
  putSettings,
  saveSubscription,
  unreadCountOf,
} from './service.ts';

const bearer = [{ bearer: [] }];
const tags = ['trade-room'];

/**
 * Notifications and Web Push (DECISIONS §12): the member's list (newest first, with unreadCount), the
 * badge count, marking read, the SMS alert switch, the VAPID public key and push subscriptions.
 * Push routes answer 503 SERVICE_UNAVAILABLE when no VAPID keys exist (production without VAPID_*).
 */
export function registerNotificationRoutes(
  app: FastifyZod,
  deps: AppDeps,
  vapid: () => VapidKeys | null,
): void {
  const { db } = deps;
  const member = deps.guards.requireMember;
  const needVapid = () => {
    const k = vapid();
    if (!k) throw new AppError('SERVICE_UNAVAILABLE');
    return k;
  };

  app.get(
    '/api/v1/notifications',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'The member’s notifications, newest first',
        querystring: z.object({ cursor: cursorField.optional() }),
        response: okResponse(notificationPage),
      },
    },
    async (request) => ok(await listNotifications(db, memberIdOf(request), request.query.cursor)),
  );

  app.get(
    '/api/v1/notifications/unread-count',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Unread notifications (the header badge)',
        response: okResponse(unreadCount),
      },
    },
    async (request) => ok({ unreadCount: await unreadCountOf(db, memberIdOf(request)) }),
  );

  app.post(
    '/api/v1/notifications/read',
    {
      config: { tradeListUnaffected: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Marks notifications read',
        body: notificationReadBody,
        response: okResponse(unreadCount),
      },
    },
    async (request) => ok({ unreadCount: await markRead(db, memberIdOf(request), request.body.ids) }),
  );

  app.get(
    '/api/v1/notifications/settings',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'The member’s alert settings (SMS alerts)',
        response: okResponse(notificationSettings),
      },
    },
    async (request) => ok(await getSettings(db, memberIdOf(request))),
  );

  app.put(
    '/api/v1/notifications/settings',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Turns SMS alerts on or off',
        body: notificationSettings,
        response: okResponse(notificationSettings),
      },
    },
    async (request) => ok(await putSettings(db, memberIdOf(request), request.body)),
  );

  app.get(
    '/api/v1/push/vapid-public-key',
    {
      schema: {
        tags,
        summary: 'The VAPID public key a browser subscribes with',
        response: okResponse(vapidPublicKey),
      },
    },
    async () => ok({ publicKey: needVapid().publicKey }),
  );

  app.post(
    '/api/v1/push/subscriptions',
    {
      config: { tradeListUnaffected: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Stores this browser’s push subscription',
        body: pushSubscriptionBody,
        response: okResponse(z.null()),
      },
    },
    async (request) => {
      needVapid();
      checkEndpoint(request.body.endpoint, deps.config.isProduction);
      await saveSubscription(db, memberIdOf(request), request.body);
      return ok(null);
    },
  );

  app.delete(
    '/api/v1/push/subscriptions',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Removes this browser’s push subscription',
        body: pushUnsubscribeBody,
        response: okResponse(z.null()),
      },
    },
    async (request) => {
      await deleteSubscription(db, memberIdOf(request), request.body.endpoint);
      return ok(null);
    },
  );
}
