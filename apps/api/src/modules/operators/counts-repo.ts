import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/** The queues the console summary counts (037_ops_counts.sql): each key's number of rows. */
export type OpsCountKey =
  | 'pendingListings'
  | 'pendingWithdrawals'
  | 'requestedOrders'
  | 'disputedOrders'
  | 'members'
  | 'suspendedMembers';

/** How many deltas one fold statement takes at most: a fold after a burst of expiries stays a short statement. */
export const FOLD_BATCH = 10_000;

/**
 * The kept counts (issue 27, 037_ops_counts.sql): each key's folded number plus its deltas not yet folded, in
 * one statement, so a fold running beside it is seen whole or not at all. Reads at most the keys and the deltas
 * written since the last fold, however long the queues or the history. A key never written reads 0.
 */
export async function readOpsCounts(db: DbOrTx): Promise<Record<OpsCountKey, number>> {
  const r = await sql<{ key: OpsCountKey; n: string }>`
    select key, sum(n)::bigint as n from (
      select key, n from ops_counts
      union all select key, delta from ops_count_deltas
    ) s group by key`.execute(db);
  const out: Record<OpsCountKey, number> = {
    pendingListings: 0,
    pendingWithdrawals: 0,
    requestedOrders: 0,
    disputedOrders: 0,
    members: 0,
    suspendedMembers: 0,
  };
  for (const row of r.rows) out[row.key] = Number(row.n);
  return out;
}

/**
 * Folds up to FOLD_BATCH deltas into ops_counts in one statement: the DELETE ... RETURNING takes each delta at
 * most once however many instances fold at once (a second fold waits on the rows the first deleted, then skips
 * them), and the sum lands in the same statement. Returns how many deltas it folded.
 */
export async function foldOpsCounts(db: DbOrTx): Promise<number> {
  const r = await sql<{ folded: string }>`
    with taken as (
      delete from ops_count_deltas
      where id in (select id from ops_count_deltas order by id limit ${FOLD_BATCH})
      returning key, delta
    ), sums as (
      insert into ops_counts (key, n)
      select key, sum(delta) from taken group by key
      on conflict (key) do update set n = ops_counts.n + excluded.n
      returning 1
    )
    select count(*)::bigint as folded from taken`.execute(db);
  return Number(r.rows[0]?.folded ?? 0);
}

/**
 * The counts as the tables say now (the check of the kept ones, in tests and the ops summary test): the same
 * filters as 037's key functions, counted in one statement.
 */
export async function recountOps(db: DbOrTx): Promise<Record<OpsCountKey, number>> {
  const r = await sql<Record<OpsCountKey, string>>`
    select
      (select count(*) from sell_listings where status = 'PENDING_REVIEW') as "pendingListings",
      (select count(*) from transfers
        where status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL') as "pendingWithdrawals",
      (select count(*) from buy_orders where status in ('REQUESTED', 'PAID')) as "requestedOrders",
      (select count(*) from buy_orders where status = 'DISPUTED') as "disputedOrders",
      (select count(*) from members) as "members",
      (select count(*) from members where status = 'SUSPENDED') as "suspendedMembers"`.execute(db);
  const row = r.rows[0];
  if (!row) throw new Error('recount returned no row');
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as Record<
    OpsCountKey,
    number
  >;
}
