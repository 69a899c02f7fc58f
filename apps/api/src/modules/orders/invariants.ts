import { sql } from 'kysely';
import type { Invariant } from '../../ledger/index.ts';

/**
 * Escrow invariants (DECISIONS §4), run by the ledger check after every scenario:
 * 1. per seller and coin, the escrow balance = remainingQty of their active listings + quantity of their
 *    live orders (REQUESTED, PAID, DISPUTED: DECISIONS §11) on any of their listings, closed ones included;
 * 2. per active listing, remainingQty = maxQty - quantity of its live and COMPLETED orders.
 * A whole-database check, so it reads `sell_listings` (listings module) and `ledger_accounts` (ledger) next to
 * `buy_orders` in one statement each: it compares three owners' records and must see them in one snapshot.
 * Registered with the ledger check in app.ts.
 */
export const escrowInvariants: Invariant[] = [
  async (db) => {
    const r = await sql<{ member_id: number; coin: string; escrow: string; owed: string }>`
      with owed as (
        select seller_id as member_id, coin, remaining_qty as qty from sell_listings
          where status in ('PENDING_REVIEW', 'OPEN', 'PAUSED')
        union all
        select seller_id, coin, request_qty from buy_orders where status in ('REQUESTED', 'PAID', 'DISPUTED')
      ), owed_sum as (select member_id, coin, sum(qty) as qty from owed group by member_id, coin),
      escrow as (select member_id, coin, balance from ledger_accounts where kind = 'escrow')
      select coalesce(e.member_id, o.member_id) as member_id, coalesce(e.coin, o.coin) as coin,
             coalesce(e.balance, 0)::text as escrow, coalesce(o.qty, 0)::text as owed
      from escrow e full outer join owed_sum o on o.member_id = e.member_id and o.coin = e.coin
      where coalesce(e.balance, 0) <> coalesce(o.qty, 0)
      limit 100`.execute(db);
    return r.rows.map(
      (x) =>
        `escrow of member ${x.member_id} ${x.coin}: balance ${x.escrow} but listings and orders hold ${x.owed}`,
    );
  },
  async (db) => {
    const r = await sql<{ id: number; remaining: string; expected: string }>`
      select l.id, l.remaining_qty::text as remaining,
             (l.max_qty - coalesce(sum(o.request_qty) filter (where o.status in ('REQUESTED', 'PAID', 'DISPUTED', 'COMPLETED')), 0))::text
               as expected
      from sell_listings l left join buy_orders o on o.listing_id = l.id
      where l.status in ('PENDING_REVIEW', 'OPEN', 'PAUSED')
      group by l.id
      having l.remaining_qty <> l.max_qty - coalesce(sum(o.request_qty) filter (where o.status in ('REQUESTED', 'PAID', 'DISPUTED', 'COMPLETED')), 0)
      limit 100`.execute(db);
    return r.rows.map((x) => `listing ${x.id}: remainingQty ${x.remaining} but orders leave ${x.expected}`);
  },
];
