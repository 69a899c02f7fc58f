import type { Coin, NotificationKind, PushSubscriptionBody } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/**
 * The SQL of the notifications module's tables (`notifications`, `notification_settings`,
 * `push_subscriptions`; DECISIONS §12, 010_trade_room.sql). Other modules raise a notification in their own
 * transaction through `notifyMessageOnce` and `notifyDepositCredited` (the order moves through 010's triggers) and never write
 * `notifications` themselves. Each function takes the database or the caller's transaction.
 */

/**
 * Raises a MESSAGE notification of order `orderId` for `memberId`, unless one for that order is still
 * unread (one unread MESSAGE per order and member, however many messages arrive).
 */
export async function notifyMessageOnce(tx: Tx, memberId: number, orderId: number): Promise<void> {
  await sql`insert into notifications (member_id, kind, order_id)
      select ${memberId}::bigint, 'MESSAGE', ${orderId}::bigint
      where not exists (select 1 from notifications where member_id = ${memberId} and order_id = ${orderId}
        and kind = 'MESSAGE' and read_at is null)`.execute(tx);
}

/**
 * Raises the DEPOSIT_CREDITED notification of a deposit credited from the chain (DECISIONS §17) for `memberId`,
 * in the caller's transaction (in-app and Web Push; no SMS: the kind is not one of SMS_NOTIFICATION_KINDS).
 */
export async function notifyDepositCredited(
  tx: Tx,
  memberId: number,
  data: { transferId: number; walletId: number; coinCode: string; amount: string },
): Promise<void> {
  await tx
    .insertInto('notifications')
    .values({ member_id: memberId, kind: 'DEPOSIT_CREDITED', data: JSON.stringify(data) })
    .execute();
}

/**
 * Raises WITHDRAWAL_COMPLETED (the chain confirmed an external withdrawal) or WITHDRAWAL_FAILED (it failed on
 * chain and was refunded) for `memberId`, in the caller's transaction (DECISIONS §18; in-app and Web Push).
 */
export async function notifyWithdrawal(
  tx: Tx,
  memberId: number,
  kind: 'WITHDRAWAL_COMPLETED' | 'WITHDRAWAL_FAILED',
  data: { transferId: number; walletId: number; coinCode: string; amount: string; txid: string | null },
): Promise<void> {
  await tx
    .insertInto('notifications')
    .values({ member_id: memberId, kind, data: JSON.stringify(data) })
    .execute();
}

/** The member's unread notifications (a count). */
export async function countUnread(db: DbOrTx, memberId: number): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A notification row as the list reads it, with the member's role in its order (null without an order). */
export type NotificationRow = {
  id: number;
  kind: NotificationKind;
  order_id: number | null;
  order_role: 'BUYER' | 'SELLER' | null;
  listing_id: number | null;
  data: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
  /** the order's operator reason, dispute opening and end (DISPUTE_RESOLVED shows them), null without */
  order_reason: string | null;
  order_disputed_at: Date | null;
  order_ended_at: Date | null;
  coin: Coin | null;
  request_qty: string | null;
  request_krw: number | null;
  counterpart: string | null;
  listing_coin: Coin | null;
  listing_price_krw: number | null;
};

/**
 * Up to `limit` of the member's notifications, newest first, with ids below `beforeId` when given. Reads
 * `buy_orders` (orders module), `sell_listings` (listings) and the other party's nickname (`members`) in the
 * same statement for the member's role, what each notification is about (who, what, how much) and a resolved
 * dispute's reason and times: a lookup per notification, or further queries, would add round trips to every
 * list page.
 */
export async function notificationRows(
  db: DbOrTx,
  memberId: number,
  beforeId: number | null,
  limit: number,
): Promise<NotificationRow[]> {
  let q = db
    .selectFrom('notifications as n')
    .leftJoin('buy_orders as o', 'o.id', 'n.order_id')
    .leftJoin('members as cp', (j) =>
      j.on(sql<boolean>`cp.id = case when o.buyer_id = n.member_id then o.seller_id else o.buyer_id end`),
    )
    .leftJoin('sell_listings as l', 'l.id', 'n.listing_id')
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
      'o.reason as order_reason',
      'o.disputed_at as order_disputed_at',
      'o.ended_at as order_ended_at',
      'o.coin',
      sql<string | null>`o.request_qty::text`.as('request_qty'),
      sql<number | null>`o.request_krw::float8`.as('request_krw'),
      'cp.nickname as counterpart',
      'l.coin as listing_coin',
      sql<number | null>`l.unit_price_krw::float8`.as('listing_price_krw'),
    ])
    .where('n.member_id', '=', memberId)
    .orderBy('n.id', 'desc')
    .limit(limit);
  if (beforeId !== null) q = q.where('n.id', '<', beforeId);
  return (await q.execute()) as NotificationRow[];
}

/** Marks the member's unread notifications `ids` read now; ids of others are left alone. */
export async function markNotificationsRead(db: DbOrTx, memberId: number, ids: number[]): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`now()` })
    .where('member_id', '=', memberId)
    .where('id', 'in', ids)
    .where('read_at', 'is', null)
    .execute();
}

/** The member's stored SMS alert setting, or undefined when never set. */
export async function smsAlertsSetting(db: DbOrTx, memberId: number): Promise<boolean | undefined> {
  const r = await db
    .selectFrom('notification_settings')
    .select('sms_alerts')
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return r?.sms_alerts;
}

/** Stores the member's SMS alert setting (insert or update). */
export async function upsertSmsAlerts(db: DbOrTx, memberId: number, smsAlerts: boolean): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values({ member_id: memberId, sms_alerts: smsAlerts })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({ sms_alerts: smsAlerts, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/** Stores a push subscription for the member; an endpoint seen before moves to this member (created now). */
export async function upsertSubscription(
  db: DbOrTx,
  memberId: number,
  s: PushSubscriptionBody,
): Promise<void> {
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
}

/** Deletes the member's subscriptions beyond the newest `keep` (by id). */
export async function trimSubscriptions(db: DbOrTx, memberId: number, keep: number): Promise<void> {
  await sql`delete from push_subscriptions where member_id = ${memberId} and id not in (
    select id from push_subscriptions where member_id = ${memberId} order by id desc limit ${keep})`.execute(
    db,
  );
}

/** Deletes the member's subscription of `endpoint` (another member's: nothing happens). */
export async function deleteMemberSubscription(
  db: DbOrTx,
  memberId: number,
  endpoint: string,
): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('member_id', '=', memberId)
    .where('endpoint', '=', endpoint)
    .execute();
}

/** A notification claimed for sending, with what sending needs. */
export type ClaimedNotification = {
  id: number;
  member_id: number;
  kind: string;
  order_id: number | null;
  listing_id: number | null;
  phone_e164: string | null;
  sms_status: string | null;
  has_push: boolean;
};

/**
 * Claims the notifications `ids` for sending (dispatched_at set while null, so one instance wins each) and
 * returns what sending needs for those this call won; the others are left out. For the `smsKinds` it records
 * sms_status OFF (alerts off) or NO_PHONE right away; null means an SMS is to be sent. Reads the member's
 * phone from `members` (identity) in the same statement: one statement for a whole batch.
 */
export async function claimNotifications(
  db: DbOrTx,
  ids: readonly number[],
  smsKinds: readonly string[],
): Promise<ClaimedNotification[]> {
  if (ids.length === 0) return [];
  const claimed = await sql<ClaimedNotification>`update notifications n set dispatched_at = now(),
        sms_status = case when n.kind in (${sql.join(smsKinds)}) then
          case when s.sms_alerts = false then 'OFF' when m.phone_e164 is null then 'NO_PHONE' end end
      from members m left join notification_settings s on s.member_id = m.id
      where n.id = any(${[...ids]}::bigint[]) and n.dispatched_at is null and m.id = n.member_id
      returning n.id, n.member_id, n.kind, n.order_id, n.listing_id, m.phone_e164, n.sms_status,
        exists (select 1 from push_subscriptions p where p.member_id = n.member_id) as has_push`.execute(db);
  return claimed.rows;
}

/** Records the outcomes of notifications' SMS (`outcomes`: notification id -> status), in one statement. */
export async function setSmsStatuses(
  db: DbOrTx,
  outcomes: ReadonlyMap<number, 'SENT' | 'FAILED'>,
): Promise<void> {
  if (outcomes.size === 0) return;
  await sql`update notifications n set sms_status = v.status
      from unnest(${[...outcomes.keys()]}::bigint[], ${[...outcomes.values()]}::text[]) as v(id, status)
      where n.id = v.id`.execute(db);
}

/** Records how many push messages of a notification the push services accepted. */
export async function setPushSent(db: DbOrTx, id: number, sent: number): Promise<void> {
  await db.updateTable('notifications').set({ push_sent: sent }).where('id', '=', id).execute();
}

/** The member's push subscriptions (id, endpoint and keys). */
export async function subscriptionsOf(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('member_id', '=', memberId)
    .execute();
}

/** Deletes push subscription `id` (gone at the push service: 404 or 410). */
export async function deleteSubscriptionById(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

/** Up to 100 notification ids no instance claimed within 10 seconds of their creation, oldest first. */
export async function unclaimedNotificationIds(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('id')
    .where('dispatched_at', 'is', null)
    .where('created_at', '<', sql<Date>`now() - interval '10 seconds'`)
    .orderBy('id')
    .limit(100)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The retention purge of one member (DECISIONS §19): their notifications, alert settings and Web Push
 * subscriptions (a device's endpoint) are deleted.
 */
export async function purgeNotificationsOf(tx: Tx, memberId: number): Promise<void> {
  await tx.deleteFrom('notifications').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('notification_settings').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('push_subscriptions').where('member_id', '=', memberId).execute();
}
