import {
  type BuyOrderDisputeBody,
  type DisputeReason,
  LIMITS,
  LIVE_ORDER_STATUSES,
  type OrderStatus,
} from '@p2p/contract';
import { type InsertObject, sql } from 'kysely';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { type OrderRow, type OrderSource, withParties } from './repo-parties.ts';
import type { OrderParty } from './tables.ts';

/**
 * The SQL that writes and locks the orders module's table (`buy_orders`); the read models are in
 * queries.ts and ops-queries.ts. Timestamps are the database's now(); windows are whole seconds.
 */

/**
 * Reads a buy order under SELECT ... FOR UPDATE with its deadlines decided by the database clock
 * (payment_due, release_due, dispute_open); undefined when absent or, with `skipLocked`, held elsewhere.
 * Lock it after its listing (listings/repo.ts lockListing): one lock order everywhere.
 */
export async function lockOrder(tx: Tx, orderId: number, skipLocked = false) {
  let q = tx
    .selectFrom('buy_orders')
    .selectAll()
    .select([
      sql<boolean>`status = 'REQUESTED' and payment_deadline <= now()`.as('payment_due'),
      sql<boolean>`status = 'PAID' and release_deadline <= now()`.as('release_due'),
      sql<boolean>`dispute_opens_at <= now()`.as('dispute_open'),
    ])
    .where('id', '=', orderId)
    .forUpdate();
  if (skipLocked) q = q.skipLocked();
  return q.executeTakeFirst();
}

/** A buy order read under its row lock (lockOrder). */
export type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/** An order's listing and parties without a lock (who may act, which listing to lock first). */
export async function orderParties(tx: DbOrTx, orderId: number) {
  return tx
    .selectFrom('buy_orders')
    .select(['listing_id', 'buyer_id', 'seller_id'])
    .where('id', '=', orderId)
    .executeTakeFirst();
}

/**
 * Inserts a REQUESTED buy order and answers its view (orderWithParties' row) from the same statement. Throws the
 * database's unique violation as is.
 */
export async function insertBuyOrder(tx: Tx, values: InsertObject<DB, 'buy_orders'>): Promise<OrderRow> {
  // Issue 27: the order view folded into the insert (one statement): the returned row joined to its parties.
  const from = tx
    .with('ins', (q) => q.insertInto('buy_orders').values(values).returningAll())
    .selectFrom('ins as o') as unknown as OrderSource;
  return withParties(from).executeTakeFirstOrThrow();
}

/**
 * The payment deadline of a new order (DECISIONS §11), as the database computes it in the insert: the
 * reserved instant (a reserve purchase) or now, plus `paymentWindowSec`.
 */
export function paymentDeadline(reservedAt: Date | null, paymentWindowSec: number) {
  return reservedAt
    ? sql<Date>`${reservedAt.toISOString()}::timestamptz + make_interval(secs => ${paymentWindowSec})`
    : sql<Date>`now() + make_interval(secs => ${paymentWindowSec})`;
}

/** True when the listing has an order in REQUESTED, PAID or DISPUTED (DECISIONS §11). */
export async function hasLiveOrder(tx: Tx, listingId: number): Promise<boolean> {
  const live = await tx
    .selectFrom('buy_orders')
    .select('id')
    .where('listing_id', '=', listingId)
    .where('status', 'in', LIVE_ORDER_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return live !== undefined;
}

/** REQUESTED past its payment deadline -> `to` (EXPIRED), ended by the system at the deadline itself. */
export async function expireOrder(tx: Tx, o: LockedOrder, to: OrderStatus): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({
      status: to,
      expired_at: o.payment_deadline,
      ended_at: o.payment_deadline,
      ended_by: 'SYSTEM',
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', o.id)
    .execute();
}

/** PAID past its release deadline -> `to` (DISPUTED) by the system with `reason` and its statement. */
export async function escalateOrder(
  tx: Tx,
  o: LockedOrder,
  to: OrderStatus,
  reason: DisputeReason,
  statement: string,
): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({
      status: to,
      disputed_at: o.release_deadline,
      dispute_reason: reason,
      dispute_opened_by: 'SYSTEM',
      system_statement: statement,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', o.id)
    .execute();
}

/** Ends an order without delivery: `to` (CANCELED, REJECTED) now, by `by`, with the operator's reason. */
export async function endOrderRow(
  tx: Tx,
  orderId: number,
  to: OrderStatus,
  by: OrderParty,
  reason: string | null,
): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({ status: to, reason, ended_at: sql<Date>`now()`, ended_by: by, updated_at: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute();
}

/** REQUESTED -> `to` (PAID): paidAt now, the release deadline and the buyer's dispute opening after it. */
export async function markOrderPaid(
  tx: Tx,
  orderId: number,
  to: OrderStatus,
  w: { releaseWindowSec: number; disputeAfterSec: number },
): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({
      status: to,
      paid_at: sql<Date>`now()`,
      release_deadline: sql<Date>`now() + make_interval(secs => ${w.releaseWindowSec})`,
      dispute_opens_at: sql<Date>`now() + make_interval(secs => ${w.disputeAfterSec})`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', orderId)
    .execute();
}

/** The column of a party's dispute statement. */
export type StatementColumn = 'buyer_statement' | 'seller_statement';

/** Adds a party's statement to a DISPUTED order (the state stays). */
export async function addDisputeStatement(
  tx: Tx,
  orderId: number,
  column: StatementColumn,
  statement: string,
): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({ [column]: statement, updated_at: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute();
}

/** PAID -> `to` (DISPUTED) by a party, with its reason and statement. */
export async function openDispute(
  tx: Tx,
  orderId: number,
  to: OrderStatus,
  by: 'BUYER' | 'SELLER',
  column: StatementColumn,
  body: BuyOrderDisputeBody,
): Promise<void> {
  await tx
    .updateTable('buy_orders')
    .set({
      status: to,
      // whole milliseconds: the dispute queue's keyset cursor carries this instant in ms
      disputed_at: sql<Date>`date_trunc('milliseconds', now())`,
      dispute_reason: body.reason,
      dispute_opened_by: by,
      [column]: body.statement,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', orderId)
    .execute();
}

/**
 * Completes an order: `to` (COMPLETED) now with the TxID, the kept trade fee `feeQty` (decimal string) and
 * the operator's reason. Returns the seconds from paidAt (or creation) to now: the seller's release time.
 */
export async function completeOrderRow(
  tx: Tx,
  orderId: number,
  c: { to: OrderStatus; txid: string; feeQty: string; by: OrderParty; reason: string | null },
): Promise<number> {
  const done = await tx
    .updateTable('buy_orders')
    .set({
      status: c.to,
      txid: c.txid,
      fee_qty: c.feeQty,
      reason: c.reason,
      completed_at: sql<Date>`now()`,
      ended_at: sql<Date>`now()`,
      ended_by: c.by,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', orderId)
    .returning(sql<number>`extract(epoch from now() - coalesce(paid_at, created_at))::int`.as('release_sec'))
    .executeTakeFirstOrThrow();
  return Number(done.release_sec);
}

/** Ids of orders whose deadline has passed, oldest deadline first; `memberId` narrows to one party's. */
export async function dueOrderIds(db: DbOrTx, limit: number, memberId?: number): Promise<number[]> {
  const party = memberId === undefined ? sql`true` : sql`(buyer_id = ${memberId} or seller_id = ${memberId})`;
  const r = await sql<{ id: number; due: Date }>`
    (select id, payment_deadline as due from buy_orders
       where status = 'REQUESTED' and payment_deadline <= now() and ${party}
       order by payment_deadline limit ${limit})
    union all
    (select id, release_deadline as due from buy_orders
       where status = 'PAID' and release_deadline <= now() and ${party}
       order by release_deadline limit ${limit})
    order by due limit ${limit}`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/** True when the order exists and its payment or release deadline has passed. */
export async function isOrderDue(db: Db, orderId: number): Promise<boolean> {
  const due = await db
    .selectFrom('buy_orders')
    .select('id')
    .where('id', '=', orderId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'REQUESTED'), eb('payment_deadline', '<=', sql<Date>`now()`)]),
        eb.and([eb('status', '=', 'PAID'), eb('release_deadline', '<=', sql<Date>`now()`)]),
      ]),
    )
    .executeTakeFirst();
  return due !== undefined;
}

/**
 * A buyer's standing before a new order (DECISIONS §11), one statement: `due` (an order of theirs, as buyer or
 * seller, is past its payment or release deadline and must be settled first: the counts below would be
 * stale), their own cancels and expiries of the last 24 h (`drops`, the newest at `last`), their live orders,
 * and the newest unused purchase phone
 * check (DECISIONS §6: an `sms_codes` row of purpose 'member' that this member requested and verified for
 * `phoneE164` within the purchase window). `sms_codes` is the identity module's table, joined here because
 * the three reads must share one snapshot taken after the buyer's row lock, in one round trip of the
 * purchase's hot path; it is read, never written.
 */
export async function buyerStanding(tx: Tx, buyerId: number, phoneE164: string) {
  const row = await sql<{
    drops: string;
    last: Date | string | null;
    live: string;
    check_id: string | null;
    due: boolean;
  }>`
    select d.n as drops, d.last, lv.n as live, c.id as check_id,
      exists (select 1 from buy_orders where status = 'REQUESTED' and payment_deadline <= now()
                and (buyer_id = ${buyerId} or seller_id = ${buyerId}))
      or exists (select 1 from buy_orders where status = 'PAID' and release_deadline <= now()
                and (buyer_id = ${buyerId} or seller_id = ${buyerId})) as due
    from (select count(*) as n, max(ended_at) as last from buy_orders
            where buyer_id = ${buyerId}
              and (status = 'EXPIRED' or (status = 'CANCELED' and ended_by = 'BUYER'))
              and ended_at > now() - interval '24 hours') d
    cross join (select count(*) as n from buy_orders
                  where buyer_id = ${buyerId} and status in (${sql.join(LIVE_ORDER_STATUSES.map((s) => sql.lit(s)))})) lv
    left join lateral (
      select c.id from sms_codes c
      where c.phone_e164 = ${phoneE164} and c.purpose = 'member' and c.member_id = ${buyerId}
        and c.verified_at > now() - make_interval(secs => ${LIMITS.purchaseVerifyWindowSec})
        and not exists (select 1 from buy_orders o where o.purchase_check_id = c.id)
      order by c.verified_at desc
      limit 1) c on true`.execute(tx);
  const r = row.rows[0];
  if (!r) throw new Error('buyer standing: no row');
  return r;
}

/**
 * The won a member traded in the last 24 h (DECISIONS §19, KYC1_DAILY_KRW): the request_krw of their orders
 * as buyer or seller created since then, live or completed (an order that ended without delivery moved
 * nothing). Integer won.
 */
export async function krwTradedLastDay(tx: DbOrTx, memberId: number): Promise<number> {
  const r = await tx
    .selectFrom('buy_orders')
    .select(sql<string>`coalesce(sum(request_krw), 0)`.as('krw'))
    .where((eb) => eb.or([eb('buyer_id', '=', memberId), eb('seller_id', '=', memberId)]))
    .where('created_at', '>', sql<Date>`now() - interval '24 hours'`)
    .where('status', 'not in', ['CANCELED', 'REJECTED', 'EXPIRED'])
    .executeTakeFirstOrThrow();
  return Number(r.krw);
}
