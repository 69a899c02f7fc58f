import type { Coin, UnmatchedStatus } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';
import type { UnmatchedRow } from './repo.ts';

/** Read models of the deposits module: the chain status page, the metrics and the unmatched queue. */

/** What the watchers stored per coin, with whether a lease is live right now. */
export interface WatcherStatusRow {
  coin: Coin;
  height: number | null;
  node_height: number | null;
  node_up: boolean | null;
  last_scan_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  active: boolean;
}

/** Every coin's watcher row (coins never watched have none). */
export async function watcherStatusRows(db: DbOrTx): Promise<WatcherStatusRow[]> {
  const r = await sql<WatcherStatusRow>`select coin, height, node_height, node_up, last_scan_at, last_error,
        last_error_at, coalesce(lease_until > now(), false) as active
      from chain_watchers order by coin`.execute(db);
  return r.rows.map((x) => ({
    ...x,
    height: x.height === null ? null : Number(x.height),
    node_height: x.node_height === null ? null : Number(x.node_height),
  }));
}

/** One page of unmatched payments of `status` (and `coin`), oldest first, after id `afterId` when given. */
export async function unmatchedPage(
  db: DbOrTx,
  q: { status: UnmatchedStatus; coin?: Coin; afterId?: number; limit: number },
): Promise<UnmatchedRow[]> {
  let query = db.selectFrom('chain_unmatched').selectAll().where('status', '=', q.status);
  if (q.coin) query = query.where('coin', '=', q.coin);
  if (q.afterId !== undefined) query = query.where('id', '>', q.afterId);
  return query.orderBy('id').limit(q.limit).execute();
}

/** How many unmatched payments are in `status` (and of `coin`). */
export async function countUnmatched(db: DbOrTx, status: UnmatchedStatus, coin?: Coin): Promise<number> {
  let query = db
    .selectFrom('chain_unmatched')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status);
  if (coin) query = query.where('coin', '=', coin);
  const r = await query.executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Unmatched payment `id`, or undefined. */
export async function unmatchedById(db: DbOrTx, id: number): Promise<UnmatchedRow | undefined> {
  return db.selectFrom('chain_unmatched').selectAll().where('id', '=', id).executeTakeFirst();
}
