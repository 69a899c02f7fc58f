import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/** What keeps a membership from closing (DECISIONS §19): each count and every non-zero member account. */
export interface MembershipContents {
  liveOrders: number;
  activeListings: number;
  pendingTransfers: number;
  balances: { coin: string; kind: string; balance: string }[];
}

/**
 * What the member still has here: live orders as buyer or seller (REQUESTED, PAID, DISPUTED), active listings
 * (PENDING_REVIEW, OPEN, PAUSED), transfers not yet ended (a withdrawal waiting, sending or failed, a deposit
 * confirming; also a delivery whose refund would come back to them) and every ledger account of theirs that is
 * not zero. One statement over four owners' tables (orders, listings, wallets, the ledger): it runs under the
 * member's row lock in the closing transaction, and one snapshot answers "empty?" at one instant. Read only.
 */
export async function membershipContents(db: DbOrTx, memberId: number): Promise<MembershipContents> {
  const r = await sql<MembershipContents>`select
      (select count(*) from buy_orders o where (o.buyer_id = ${memberId} or o.seller_id = ${memberId})
        and o.status in ('REQUESTED', 'PAID', 'DISPUTED'))::int as "liveOrders",
      (select count(*) from sell_listings l where l.seller_id = ${memberId}
        and l.status in ('PENDING_REVIEW', 'OPEN', 'PAUSED'))::int as "activeListings",
      (select count(*) from transfers t where (t.member_id = ${memberId} or t.refund_member_id = ${memberId})
        and t.status not in ('COMPLETED', 'REJECTED', 'DROPPED', 'BELOW_MINIMUM'))::int as "pendingTransfers",
      coalesce((select json_agg(json_build_object('coin', a.coin, 'kind', a.kind, 'balance', a.balance::text)
        order by a.coin, a.kind) from ledger_accounts a
        where a.member_id = ${memberId} and a.balance <> 0), '[]'::json) as balances`.execute(db);
  const row = r.rows[0];
  if (!row) throw new Error('membershipContents: no row');
  return row;
}
