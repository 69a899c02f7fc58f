import type { OrderStatus, opsOrder } from '@p2p/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import { cappedCount, cappedCountOfBoth } from '../../db/capped-count.ts';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { AppError } from '../../errors/index.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type Page, toPage } from '../../http/page.ts';
import { iso, isoOrNull } from '../listings/index.ts';
import { type OrderRow, orderWithParties } from './queries.ts';
import { runOrderTimers, settleBeforeRead } from './timers.ts';
import { toOrderClock, toOrderDispute } from './views.ts';

type OpsOrder = z.infer<typeof opsOrder>;

/**
 * GET /ops/api/v1/orders: orders of any (or one) status, optionally of one member (as buyer or seller),
 * newest first. status=DISPUTED is the dispute queue (DECISIONS §11): oldest dispute first, keyset on
 * (disputedAt, id), each with both statements and its waiting time. Due orders are settled first, so an
 * order past its deadline is never listed as live.
 */
export async function opsOrders(
  db: Db,
  q: { status?: OrderStatus; memberId?: number; size: number; cursor?: string },
): Promise<Page<OpsOrder>> {
  await runOrderTimers(db);
  if (q.status === 'DISPUTED') return disputeQueue(db, q);
  const scope = `ops-orders:${q.status ?? 'ALL'}:${q.memberId ?? 'ALL'}`;
  const cursor = decodeCursor(scope, q.cursor, false);
  const status = q.status;
  const side = (col: 'buyer_id' | 'seller_id' | null) => {
    let ids = db.selectFrom('buy_orders').select('id');
    let count = db.selectFrom('buy_orders');
    if (status) {
      // All members' orders of a status: a parameter. The one plan (an index-only range of (status, id) from
      // the newest, then the join for 21 ids) is right for every status, so PostgreSQL keeps it instead of
      // planning the seven-table join on every read. One member's: a literal, so the planner sees the status
      // and takes a partial index of live orders (a generic plan walked a busy buyer's 20,000 orders for a
      // REQUESTED page: 15 ms). The count: a literal (a generic "any status" plan reads the table for a rare one).
      ids = ids.where('status', '=', q.memberId === undefined ? status : sql.lit(status));
      count = count.where('status', '=', sql.lit(status));
    }
    if (col && q.memberId !== undefined) {
      ids = ids.where(col, '=', q.memberId);
      count = count.where(col, '=', q.memberId);
    }
    if (cursor) ids = ids.where('id', '<', cursor.id);
    // The page's ids first, from an index alone: (status, id), (buyer_id, id), (seller_id, id) or the key,
    // then the seven-table join for those ids only. Joined directly, the planner walked the primary key
    // backwards and filtered by status, reading the newest thousand live orders' heap pages before the first
    // COMPLETED one at two million orders (issue 27). The page size stays a literal: as a named prepared
    // statement (db/prepared.ts) a generic plan assumes a tenth of the table for a parameter limit (it walked
    // hundreds of orders in parallel: 95 ms for COMPLETED, against 1 ms planned for its values).
    const page = ids.orderBy('id', 'desc').limit(sql.lit(q.size + 1));
    return { rows: orderWithParties(db).where('o.id', 'in', page).orderBy('o.id', 'desc'), count };
  };
  // One member's orders: a keyset range on each side's index (buyer_id, id) and (seller_id, id), merged,
  // instead of an OR that reads and sorts every order the member ever had (issue 27).
  const [buyer, seller] = [side('buyer_id'), side('seller_id')];
  const sides = q.memberId === undefined ? [side(null)] : [buyer, seller];
  const [lists, total] = await Promise.all([
    Promise.all(sides.map((x) => x.rows.execute())),
    q.memberId === undefined
      ? cappedCount(db, side(null).count)
      : cappedCountOfBoth(db, buyer.count, seller.count),
  ]);
  const list = lists
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, q.size + 1);
  return toPage(list, q.size, total, toOpsOrder, (r) => encodeCursor(scope, { key: null, id: r.id }));
}

async function disputeQueue(db: Db, q: { memberId?: number; size: number; cursor?: string }) {
  const scope = `ops-disputes:${q.memberId ?? 'ALL'}`;
  const cursor = decodeCursor(scope, q.cursor, true);
  let rows = orderWithParties(db).where('o.status', '=', 'DISPUTED');
  let count = db.selectFrom('buy_orders').where('status', '=', sql.lit('DISPUTED'));
  const memberId = q.memberId;
  if (memberId !== undefined) {
    rows = rows.where((eb) => eb.or([eb('o.buyer_id', '=', memberId), eb('o.seller_id', '=', memberId)]));
    count = count.where((eb) => eb.or([eb('buyer_id', '=', memberId), eb('seller_id', '=', memberId)]));
  }
  if (cursor && cursor.key !== null) {
    const after = new Date(cursor.key);
    rows = rows.where((eb) => eb(eb.refTuple('o.disputed_at', 'o.id'), '>', eb.tuple(after, cursor.id)));
  }
  const [list, total] = await Promise.all([
    rows
      .orderBy('o.disputed_at', 'asc')
      .orderBy('o.id', 'asc')
      .limit(sql.lit(q.size + 1))
      .execute(),
    cappedCount(db, count),
  ]);
  return toPage(list, q.size, total, toOpsOrder, (r) =>
    encodeCursor(scope, { key: r.disputed_at ? new Date(r.disputed_at).getTime() : 0, id: r.id }),
  );
}

function toOpsOrder(r: OrderRow): OpsOrder {
  return {
    orderId: r.id,
    listingId: r.listing_id,
    buyerId: r.buyer_id,
    sellerId: r.seller_id,
    buyerLoginId: r.buyer_login_id,
    sellerLoginId: r.seller_login_id,
    coinCode: r.coin,
    requestQty: qty(r.request_qty),
    feeQty: qty(r.fee_qty),
    requestKrwAmount: r.request_krw,
    status: r.status,
    destType: r.dest_type,
    destAddress: r.dest_address,
    txid: r.txid,
    reason: r.reason,
    createdAt: iso(r.created_at),
    completedAt: isoOrNull(r.completed_at),
    ...toOrderClock(r),
    dispute: toOrderDispute(r),
    waitingSec:
      r.status === 'DISPUTED' && r.disputed_at
        ? Math.max(0, Math.floor((Date.now() - new Date(r.disputed_at).getTime()) / 1000))
        : null,
    // both parties in full: the operator compares the depositor and the accounts to settle a dispute
    buyer: {
      nickname: r.buyer_nickname,
      name: r.buyer_name,
      phone: r.buyer_phone,
      bankName: r.buyer_bank_name,
      accountNo: r.buyer_account_no,
    },
    seller: {
      nickname: r.seller_nickname,
      name: r.seller_name,
      phone: r.seller_phone,
      bankName: r.bank_name,
      accountNo: r.account_no,
    },
  };
}

/** One order in the operator's view, or 404 ORDER_NOT_FOUND (settled first when a deadline has passed). */
export async function opsOrderById(db: Db, orderId: number): Promise<OpsOrder> {
  await settleBeforeRead(db, orderId);
  const row = await orderWithParties(db).where('o.id', '=', orderId).executeTakeFirst();
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toOpsOrder(row);
}
