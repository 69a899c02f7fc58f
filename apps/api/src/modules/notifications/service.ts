import {
  type Notification,
  type NotificationPage,
  type NotificationSettings,
  type PushSubscriptionBody,
  SMS_NOTIFICATION_KINDS,
} from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import type { SmsProvider } from '../identity/sms/provider.ts';
import { sendPush, type VapidKeys } from './push.ts';

const PAGE = 20;
const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

type Row = {
  id: number;
  kind: Notification['kind'];
  order_id: number | null;
  order_role: 'BUYER' | 'SELLER' | null;
  listing_id: number | null;
  data: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
};

const toView = (r: Row): Notification => ({
  id: r.id,
  kind: r.kind,
  orderId: r.order_id,
  orderRole: r.order_role,
  listingId: r.listing_id,
  data: r.data ?? {},
  read: r.read_at !== null,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The member's unread notifications (the header badge). */
export async function unreadCountOf(db: Db, memberId: number): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The member's notifications, newest first, 20 a page (keyset on id), with the unread count. */
export async function listNotifications(
  db: Db,
  memberId: number,
  cursor?: string,
): Promise<NotificationPage> {
  const after = cursor ? decodeIdCursor('notifications', cursor) : null;
  let q = db
    .selectFrom('notifications as n')
    .leftJoin('buy_orders as o', 'o.id', 'n.order_id')
    .select([
      'n.id',
      'n.kind',
      'n.order_id',
      'n.listing_id',
      'n.data',
      'n.read_at',
      'n.created_at',
      sql<'BUYER' | 'SELLER' | null>`case when o.id is null then null
        when o.buyer_id = n.member_id then 'BUYER' else 'SELLER' end`.as('order_role'),
    ])
    .where('n.member_id', '=', memberId)
    .orderBy('n.id', 'desc')
    .limit(PAGE + 1);
  if (after !== null) q = q.where('n.id', '<', after);
  const rows = (await q.execute()) as Row[];
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
  await db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`now()` })
    .where('member_id', '=', memberId)
    .where('id', 'in', ids)
    .where('read_at', 'is', null)
    .execute();
  return unreadCountOf(db, memberId);
}

/** The member's alert settings; SMS alerts are on until the member turns them off. */
export async function getSettings(db: Db, memberId: number): Promise<NotificationSettings> {
  const r = await db
    .selectFrom('notification_settings')
    .select('sms_alerts')
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return { smsAlerts: r?.sms_alerts ?? true };
}

export async function putSettings(
  db: Db,
  memberId: number,
  s: NotificationSettings,
): Promise<NotificationSettings> {
  await db
    .insertInto('notification_settings')
    .values({ member_id: memberId, sms_alerts: s.smsAlerts })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({ sms_alerts: s.smsAlerts, updated_at: sql<Date>`now()` }),
    )
    .execute();
  return getSettings(db, memberId);
}

/**
 * Stores a browser's push subscription for the member (an endpoint seen before moves to this member: one
 * browser, one signed-in member). A member keeps at most 10; the oldest go first.
 */
export async function saveSubscription(db: Db, memberId: number, s: PushSubscriptionBody): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values({ member_id: memberId, endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        member_id: memberId,
        p256dh: s.keys.p256dh,
        auth: s.keys.auth,
        created_at: sql<Date>`now()`,
      }),
    )
    .execute();
  await sql`delete from push_subscriptions where member_id = ${memberId} and id not in (
    select id from push_subscriptions where member_id = ${memberId} order by id desc limit ${MAX_SUBSCRIPTIONS_PER_MEMBER})`.execute(
    db,
  );
}

/** Removes the member's subscription of `endpoint` (another member's: nothing happens). */
export async function deleteSubscription(db: Db, memberId: number, endpoint: string): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('member_id', '=', memberId)
    .where('endpoint', '=', endpoint)
    .execute();
}

const SMS_LABEL: Record<string, string> = {
  ORDER_REQUESTED: '새 구매 요청 / New buy order',
  ORDER_PAID: '입금 완료 / Payment sent',
  ORDER_COMPLETED: '거래 완료 / Completed',
  ORDER_EXPIRED: '기간 만료 / Expired',
};

export interface Dispatcher {
  /** Sends the SMS and Web Push of notification `id` once, whichever instance calls first. */
  dispatch(id: number): Promise<void>;
  /** Dispatches what no instance has claimed for a while (a listener that was down). */
  sweep(): Promise<void>;
}

/**
 * After commit, each notification goes out once (DECISIONS §12): the instance that claims it
 * (dispatched_at set under `dispatched_at is null`) sends the SMS of the four SMS kinds unless the member
 * turned SMS alerts off, and a Web Push message to each of the member's subscriptions. Failures are
 * logged and recorded (sms_status FAILED), never raised: the cause committed long ago.
 */
export function createDispatcher(
  db: Db,
  sms: SmsProvider,
  vapid: () => VapidKeys | null,
  log: FastifyBaseLogger,
): Dispatcher {
  const smsKinds: readonly string[] = SMS_NOTIFICATION_KINDS;
  async function dispatch(id: number): Promise<void> {
    // One statement claims the notification and reads what sending it needs (issue 15): the member's phone and
    // SMS setting (an SMS that will not go out is recorded OFF or NO_PHONE right here) and whether any push
    // subscription exists. Only an SMS actually sent needs a second statement, for its outcome.
    const claimed = await sql<{
      id: number;
      member_id: number;
      kind: string;
      order_id: number | null;
      listing_id: number | null;
      phone_e164: string | null;
      sms_status: string | null;
      has_push: boolean;
    }>`update notifications n set dispatched_at = now(),
        sms_status = case when n.kind in (${sql.join(smsKinds)}) then
          case when s.sms_alerts = false then 'OFF' when m.phone_e164 is null then 'NO_PHONE' end end
      from members m left join notification_settings s on s.member_id = m.id
      where n.id = ${id} and n.dispatched_at is null and m.id = n.member_id
      returning n.id, n.member_id, n.kind, n.order_id, n.listing_id, m.phone_e164, n.sms_status,
        exists (select 1 from push_subscriptions p where p.member_id = n.member_id) as has_push`.execute(db);
    const n = claimed.rows[0];
    if (!n) return;
    if (smsKinds.includes(n.kind) && n.sms_status === null && n.phone_e164) {
      let status: 'SENT' | 'FAILED';
      try {
        await sms.sendText(n.phone_e164, `[P2P] #${n.order_id ?? ''} ${SMS_LABEL[n.kind] ?? n.kind}`);
        status = 'SENT';
      } catch (err) {
        log.warn({ err, notificationId: n.id }, 'notification SMS failed');
        status = 'FAILED';
      }
      await db.updateTable('notifications').set({ sms_status: status }).where('id', '=', n.id).execute();
    }
    if (!n.has_push) return;
    const subs = await db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'p256dh', 'auth'])
      .where('member_id', '=', n.member_id)
      .execute();
    if (subs.length === 0) return;
    // only now: an instance without subscribers never loads (or generates) VAPID keys
    const keys = vapid();
    if (!keys) return;
    const payload = JSON.stringify({ id: n.id, kind: n.kind, orderId: n.order_id, listingId: n.listing_id });
    let sent = 0;
    for (const s of subs) {
      try {
        const status = await sendPush(keys, s, payload);
        if (status === 404 || status === 410) {
          await db.deleteFrom('push_subscriptions').where('id', '=', s.id).execute();
        } else if (status >= 200 && status < 300) {
          sent++;
        } else {
          log.warn({ status, notificationId: n.id }, 'push service refused a notification');
        }
      } catch (err) {
        log.warn({ err, notificationId: n.id }, 'web push failed');
      }
    }
    await db.updateTable('notifications').set({ push_sent: sent }).where('id', '=', n.id).execute();
  }
  return {
    dispatch,
    async sweep() {
      const rows = await db
        .selectFrom('notifications')
        .select('id')
        .where('dispatched_at', 'is', null)
        .where('created_at', '<', sql<Date>`now() - interval '10 seconds'`)
        .orderBy('id')
        .limit(100)
        .execute();
      for (const r of rows) await dispatch(r.id);
    },
  };
}
