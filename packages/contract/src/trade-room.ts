import { z } from 'zod';
import { COINS, ORDER_STATUSES } from './enums.ts';
import { FIELD_CODES as F } from './errors.ts';
import { idParam } from './fields.ts';

/** The trade room (DECISIONS §12): order chat, notifications, live events, Web Push. */

/** Chat limits: text length in characters, image size in bytes, page size, days the chat stays writable. */
export const CHAT_TEXT_MAX = 1000;
export const CHAT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const CHAT_PAGE_SIZE = 50;
export const CHAT_OPEN_DAYS_AFTER_END = 7;
export const CHAT_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const MESSAGE_AUTHORS = ['BUYER', 'SELLER', 'OPERATOR', 'SYSTEM'] as const;
export type MessageAuthor = (typeof MESSAGE_AUTHORS)[number];
export const MESSAGE_KINDS = ['TEXT', 'IMAGE', 'SYSTEM'] as const;

/**
 * One chat message, oldest first. TEXT carries `text` (plain text: clients never render it as HTML);
 * IMAGE carries `imageUrl` (GET .../messages/{id}/image) with its size; SYSTEM carries the order `status`
 * the order moved to (clients word it). `mine` is true for the caller's own messages.
 */
export const orderMessage = z.object({
  messageId: z.number().int(),
  orderId: z.number().int(),
  kind: z.enum(MESSAGE_KINDS),
  author: z.enum(MESSAGE_AUTHORS),
  mine: z.boolean(),
  text: z.string().nullable(),
  status: z.enum(ORDER_STATUSES).nullable(),
  image: z
    .object({ url: z.string(), contentType: z.string(), width: z.number().int(), height: z.number().int() })
    .nullable(),
  createdAt: z.string(),
});
export type OrderMessage = z.infer<typeof orderMessage>;

/** A page of chat messages (oldest first); `writable` says whether the caller may post now. */
export const orderMessagePage = z.object({
  list: z.array(orderMessage),
  nextCursor: z.string().nullable(),
  writable: z.boolean(),
});
export type OrderMessagePage = z.infer<typeof orderMessagePage>;

export const orderMessageBody = z.object({
  text: z
    .string(F.REQUIRED)
    .refine((s) => s.trim().length > 0, F.REQUIRED)
    .refine((s) => s.length <= CHAT_TEXT_MAX, F.TOO_LONG),
});
export type OrderMessageBody = z.infer<typeof orderMessageBody>;

export const orderMessageParams = z.object({ id: idParam, messageId: idParam });

export const NOTIFICATION_KINDS = [
  'ORDER_REQUESTED',
  'ORDER_PAID',
  'ORDER_COMPLETED',
  'ORDER_EXPIRED',
  'ORDER_CANCELED',
  'ORDER_REJECTED',
  'DISPUTE_OPENED',
  'DISPUTE_RESOLVED',
  'MESSAGE',
  'LISTING_APPROVED',
  'LISTING_REJECTED',
  /** DECISIONS §17: a deposit from the chain reached its confirmations and was credited (in-app and push) */
  'DEPOSIT_CREDITED',
  /** DECISIONS §18: an external withdrawal reached its confirmations on chain (in-app and push) */
  'WITHDRAWAL_COMPLETED',
  /** DECISIONS §18: an external withdrawal failed on chain and an operator refunded it (in-app and push) */
  'WITHDRAWAL_FAILED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** The kinds that also go out by SMS unless the member turned SMS alerts off (DECISIONS §12). */
export const SMS_NOTIFICATION_KINDS = [
  'ORDER_REQUESTED',
  'ORDER_PAID',
  'ORDER_COMPLETED',
  'ORDER_EXPIRED',
] as const satisfies NotificationKind[];

export const notification = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  orderId: z.number().int().nullable(),
  /** the member's side of the order (which detail screen to open), null without an order */
  orderRole: z.enum(['BUYER', 'SELLER']).nullable(),
  listingId: z.number().int().nullable(),
  /**
   * kind-specific details: {status, reason, tookSec} for DISPUTE_RESOLVED (the outcome, the operator's
   * reason and the seconds the dispute took), {reason} for LISTING_REJECTED, {transferId, walletId,
   * coinCode, amount} for DEPOSIT_CREDITED
   */
  data: z.record(z.string(), z.unknown()),
  /**
   * What the notification is about, read with it so its text can say who, what and how much: the order's
   * coin, quantity, won and the other party's nickname (the one public name, DECISIONS §11); the listing's
   * coin and unit price. Null when the notification has no order (or listing).
   */
  order: z
    .object({
      coinCode: z.enum(COINS),
      requestQty: z.string(),
      requestKrwAmount: z.number().int(),
      counterpart: z.string(),
    })
    .nullable(),
  listing: z.object({ coinCode: z.enum(COINS), unitPriceKrw: z.number().int() }).nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notification>;

/** Newest first, with the caller's unread count. */
export const notificationPage = z.object({
  list: z.array(notification),
  nextCursor: z.string().nullable(),
  unreadCount: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPage>;

export const notificationReadBody = z.object({
  ids: z.array(z.number(F.INVALID_TYPE).int(F.INVALID_FORMAT).positive(F.INVALID_FORMAT)).min(1).max(100),
});
export const unreadCount = z.object({ unreadCount: z.number().int() });

export const notificationSettings = z.object({ smsAlerts: z.boolean() });
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const vapidPublicKey = z.object({ publicKey: z.string() });

/** The PushSubscription JSON a browser hands over (endpoint + keys), as PushSubscription.toJSON() gives. */
export const pushSubscriptionBody = z.object({
  endpoint: z.string(F.REQUIRED).url(F.INVALID_FORMAT).max(1000, F.TOO_LONG),
  keys: z.object({
    p256dh: z
      .string(F.REQUIRED)
      .max(200, F.TOO_LONG)
      .regex(/^[A-Za-z0-9_-]+={0,2}$/, F.INVALID_FORMAT),
    auth: z
      .string(F.REQUIRED)
      .max(100, F.TOO_LONG)
      .regex(/^[A-Za-z0-9_-]+={0,2}$/, F.INVALID_FORMAT),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;
export const pushUnsubscribeBody = z.object({ endpoint: z.string(F.REQUIRED).max(1000, F.TOO_LONG) });

/**
 * Live event names of GET /api/v1/events (DECISIONS §12, §17); `reset` = the backlog no longer reaches
 * Last-Event-ID. `transfer` {id, status}: one of the member's transfers was created or changed (status, or a
 * deposit's confirmations): refetch that wallet's transfers.
 */
export const LIVE_EVENT_TYPES = ['order', 'message', 'notification', 'ops', 'transfer', 'reset'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];
