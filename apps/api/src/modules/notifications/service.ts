import {
  type Notification,
  type NotificationPage,
  type NotificationSettings,
  type PushSubscriptionBody,
  SMS_NOTIFICATION_KINDS,
} from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import type { SmsProvider } from '../identity/index.ts';
import { sendPush, type VapidKeys } from './push.ts';
import { PushAddressRefused, type PushNetwork } from './push-network.ts';
import {
  type ClaimedNotification,
  claimNotifications,
  countUnread,
  deleteMemberSubscription,
  deleteSubscriptionById,
  markNotificationsRead,
  type NotificationRow,
  notificationRows,
  setPushSent,
  setSmsStatuses,
  smsAlertsSetting,
  subscriptionsOf,
  trimSubscriptions,
  unclaimedNotificationIds,
  upsertSmsAlerts,
  upsertSubscription,
} from './repo.ts';

const PAGE = 20;
const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

const toView = (r: NotificationRow): Notification => ({
  id: r.id,
  kind: r.kind,
  orderId: r.order_id,
  orderRole: r.order_role,
  listingId: r.listing_id,
  data: r.kind === 'DISPUTE_RESOLVED' ? { ...r.data, ...resolutionOf(r) } : (r.data ?? {}),
  order:
    r.coin !== null && r.request_qty !== null && r.request_krw !== null
      ? {
          coinCode: r.coin,
          requestQty: qty(r.request_qty),
          requestKrwAmount: r.request_krw,
          counterpart: r.counterpart ?? '',
        }
      : null,
  listing:
    r.listing_coin !== null && r.listing_price_krw !== null
      ? { coinCode: r.listing_coin, unitPriceKrw: r.listing_price_krw }
      : null,
  read: r.read_at !== null,
  createdAt: new Date(r.created_at).toISOString(),
});

/**
 * What a DISPUTE_RESOLVED notification tells both parties besides the outcome (its stored {status}): the
 * operator's reason and the seconds from the dispute's opening to the decision (DECISIONS §11).
 */
function resolutionOf(r: NotificationRow): { reason: string | null; tookSec: number | null } {
  const { order_disputed_at: opened, order_ended_at: ended } = r;
  const tookSec =
    opened && ended
      ? Math.max(0, Math.round((new Date(ended).getTime() - new Date(opened).getTime()) / 1000))
      : null;
  return { reason: r.order_reason, tookSec };
}

/** The member's unread notifications (the header badge). */
export async function unreadCountOf(db: Db, memberId: number): Promise<number> {
  return countUnread(db, memberId);
}

/** The member's notifications, newest first, 20 a page (keyset on id), with the unread count. */
export async function listNotifications(
  db: Db,
  memberId: number,
  cursor?: string,
): Promise<NotificationPage> {
  const after = cursor ? decodeIdCursor('notifications', cursor) : null;
  const rows = await notificationRows(db, memberId, after, PAGE + 1);
  const more = rows.length > PAGE;
  const page = rows.slice(0, PAGE);
  const last = page[page.length - 1];
  return {
    list: page.map(toView),
    nextCursor: more && last ? encodeIdCursor('notifications', last.id) : null,
    unreadCount: await unreadCountOf(db, memberId),
  };
}

/** Marks the member's notifications `ids` read; ids of others are ignored (nothing leaks). Returns the unread count. */
export async function markRead(db: Db, memberId: number, ids: number[]): Promise<number> {
  await markNotificationsRead(db, memberId, ids);
  return unreadCountOf(db, memberId);
}

/** The member's alert settings; SMS alerts are on until the member turns them off. */
export async function getSettings(db: Db, memberId: number): Promise<NotificationSettings> {
  return { smsAlerts: (await smsAlertsSetting(db, memberId)) ?? true };
}

export async function putSettings(
  db: Db,
  memberId: number,
  s: NotificationSettings,
): Promise<NotificationSettings> {
  await upsertSmsAlerts(db, memberId, s.smsAlerts);
  return getSettings(db, memberId);
}

/**
 * Stores a browser's push subscription for the member (an endpoint seen before moves to this member: one
 * browser, one signed-in member). A member keeps at most 10; the oldest go first.
 */
export async function saveSubscription(db: Db, memberId: number, s: PushSubscriptionBody): Promise<void> {
  await upsertSubscription(db, memberId, s);
  await trimSubscriptions(db, memberId, MAX_SUBSCRIPTIONS_PER_MEMBER);
}

/** Removes the member's subscription of `endpoint` (another member's: nothing happens). */
export async function deleteSubscription(db: Db, memberId: number, endpoint: string): Promise<void> {
  await deleteMemberSubscription(db, memberId, endpoint);
}

const SMS_LABEL: Record<string, string> = {
  ORDER_REQUESTED: '새 구매 요청 / New buy order',
  ORDER_PAID: '입금 완료 / Payment sent',
  ORDER_COMPLETED: '거래 완료 / Completed',
  ORDER_EXPIRED: '기간 만료 / Expired',
};

export interface Dispatcher {
  /**
   * Sends the SMS and Web Push of notification `id` once, whichever instance calls first. Resolves when the
   * batch it joined is done; never rejects for a failed send (recorded instead).
   */
  dispatch(id: number): Promise<void>;
  /** Dispatches what no instance has claimed for a while (a listener that was down). */
  sweep(): Promise<void>;
}

/**
 * How long the dispatcher gathers notification ids before claiming them together (ms). The notifications of one
 * commit arrive together and, under load, those of many commits: one claim and one outcome statement serve
 * them all instead of two statements each. An SMS goes out this much later, which no one notices.
 */
export const DISPATCH_BATCH_MS = 10;

/**
 * After commit, each notification goes out once (DECISIONS §12): the instance that claims it
 * (dispatched_at set under `dispatched_at is null`) sends the SMS of the four SMS kinds unless the member
 * turned SMS alerts off, and a Web Push message to each of the member's subscriptions. Failures are
 * logged and recorded (sms_status FAILED), never raised: the cause committed long ago. Ids are claimed in
 * batches of what arrived within DISPATCH_BATCH_MS. Pushes go out through `network` (default: the system
 * resolver behind the address guard, DECISIONS §21); a subscription whose endpoint is refused is removed.
 */
export function createDispatcher(
  db: Db,
  sms: SmsProvider,
  vapid: () => VapidKeys | null,
  log: FastifyBaseLogger,
  network?: PushNetwork,
): Dispatcher {
  const smsKinds: readonly string[] = SMS_NOTIFICATION_KINDS;
  let queued: number[] = [];
  let batch: Promise<void> | null = null;

  async function send(ids: readonly number[]): Promise<void> {
    // One statement claims the batch and reads what sending needs: the members' phones and SMS settings (an
    // SMS that will not go out is recorded OFF or NO_PHONE right there) and whether any push subscription
    // exists. The SMS actually sent need one more statement, for all their outcomes.
    const claimed = await claimNotifications(db, ids, smsKinds);
    const outcomes = new Map<number, 'SENT' | 'FAILED'>();
    await Promise.all(
      claimed
        .filter((n) => smsKinds.includes(n.kind) && n.sms_status === null && n.phone_e164)
        .map(async (n) => {
          try {
            await sms.sendText(
              n.phone_e164 ?? '',
              `[P2P] #${n.order_id ?? ''} ${SMS_LABEL[n.kind] ?? n.kind}`,
            );
            outcomes.set(n.id, 'SENT');
          } catch (err) {
            log.warn({ err, notificationId: n.id }, 'notification SMS failed');
            outcomes.set(n.id, 'FAILED');
          }
        }),
    );
    await setSmsStatuses(db, outcomes);
    for (const n of claimed) if (n.has_push) await push(n);
  }

  async function push(n: ClaimedNotification): Promise<void> {
    const subs = await subscriptionsOf(db, n.member_id);
    if (subs.length === 0) return;
    // only now: an instance without subscribers never loads (or generates) VAPID keys
    const keys = vapid();
    if (!keys) return;
    const payload = JSON.stringify({ id: n.id, kind: n.kind, orderId: n.order_id, listingId: n.listing_id });
    let sent = 0;
    for (const s of subs) {
      try {
        const status = await sendPush(keys, s, payload, network);
        if (status === 404 || status === 410) {
          await deleteSubscriptionById(db, s.id);
        } else if (status >= 200 && status < 300) {
          sent++;
        } else {
          log.warn({ status, notificationId: n.id }, 'push service refused a notification');
        }
      } catch (err) {
        if (err instanceof PushAddressRefused) {
          // No push service lives at a private address: the subscription aims at the internal network.
          log.warn(
            { host: err.host, address: err.address, range: err.range, memberId: n.member_id },
            'push endpoint resolves to a special address; subscription removed',
          );
          await deleteSubscriptionById(db, s.id);
        } else {
          log.warn({ err, notificationId: n.id }, 'web push failed');
        }
      }
    }
    await setPushSent(db, n.id, sent);
  }

  return {
    dispatch(id) {
      queued.push(id);
      batch ??= new Promise<void>((resolve) => setTimeout(resolve, DISPATCH_BATCH_MS)).then(() => {
        const ids = queued;
        queued = [];
        batch = null;
        return send(ids);
      });
      return batch;
    },
    async sweep() {
      await send(await unclaimedNotificationIds(db));
    },
  };
}
