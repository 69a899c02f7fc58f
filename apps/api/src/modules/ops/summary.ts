import type { OpsSummary } from '@p2p/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/**
 * GET /ops/api/v1/summary: what waits for an operator on the console home (DECISIONS §8): listings
 * pending review, external withdrawals pending, live buy orders (REQUESTED or PAID), disputes waiting for a
 * resolution (DECISIONS §11), and member counts.
 */
export async function opsSummary(db: Db): Promise<OpsSummary> {
  const r = await sql<OpsSummary>`
    select
      (select count(*) from sell_listings where status = 'PENDING_REVIEW')::int as "pendingListings",
      (select count(*) from transfers
        where status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL')::int as "pendingWithdrawals",
      (select count(*) from buy_orders where status in ('REQUESTED', 'PAID'))::int as "requestedOrders",
      (select count(*) from buy_orders where status = 'DISPUTED')::int as "disputedOrders",
      (select count(*) from members)::int as "members",
      (select count(*) from members where status = 'SUSPENDED')::int as "suspendedMembers"`.execute(db);
  const row = r.rows[0];
  if (!row) throw new Error('summary query returned no row');
  return row;
}
