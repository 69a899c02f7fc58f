import { type RawBuilder, sql } from 'kysely';
import { everyInterval } from '../interval-job.ts';
import type { Db, DbOrTx } from './client.ts';

/** How many deltas one fold statement takes at most: a fold after a burst of expiries stays a short statement. */
export const FOLD_BATCH = 10_000;

/**
 * The sum of kept counts `keys` (037_kept_counts.sql, issue 27) as an SQL expression: each key's folded number
 * plus its deltas not yet folded. Inside one statement it sees one snapshot, so a fold running beside it is seen
 * whole or not at all. Reads the keys' rows and the deltas written since the last fold, however many rows the
 * counts stand for; a key never written counts 0.
 */
export function keptCountSum(keys: readonly string[]): RawBuilder<string> {
  return sql<string>`(select coalesce(sum(n), 0)::bigint from (
      select n from kept_counts where key = any(${[...keys]}::text[])
      union all select delta from kept_count_deltas where key = any(${[...keys]}::text[])
    ) kept)`;
}

/**
 * Each of `keys`' kept count (037_kept_counts.sql), in one statement: `{ [key]: number }`, 0 for a key never
 * written. See keptCountSum for what it reads.
 */
export async function readKeptCounts<K extends string>(
  db: DbOrTx,
  keys: readonly K[],
): Promise<Record<K, number>> {
  const r = await sql<{ key: K; n: string }>`
    select key, sum(n)::bigint as n from (
      select key, n from kept_counts where key = any(${[...keys]}::text[])
      union all select key, delta from kept_count_deltas where key = any(${[...keys]}::text[])
    ) s group by key`.execute(db);
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const row of r.rows) out[row.key] = Number(row.n);
  return out;
}

/**
 * Folds up to FOLD_BATCH deltas into kept_counts in one statement: the DELETE ... RETURNING takes each delta at
 * most once however many instances fold at once (a second fold waits on the rows the first deleted, then skips
 * them), and their sums land in the same statement. Returns how many deltas it folded.
 */
export async function foldKeptCounts(db: DbOrTx): Promise<number> {
  const r = await sql<{ folded: string }>`
    with taken as (
      delete from kept_count_deltas
      where id in (select id from kept_count_deltas order by id limit ${FOLD_BATCH})
      returning key, delta
    ), sums as (
      insert into kept_counts (key, n)
      select key, sum(delta) from taken group by key
      on conflict (key) do update set n = kept_counts.n + excluded.n
      returning 1
    )
    select count(*)::bigint as folded from taken`.execute(db);
  return Number(r.rows[0]?.folded ?? 0);
}

/**
 * The fold job (issue 27): every `intervalMs` this instance folds the deltas the row triggers appended, a batch
 * of FOLD_BATCH at a time until fewer are left, so a read stays a handful of rows. Every instance folds;
 * concurrent folds are safe (foldKeptCounts), a missed fold only leaves more deltas for the reads to add.
 * Returns stop() (waits for a fold in flight). `intervalMs` 0 = off (tests fold by hand; reads are exact either way).
 */
export function startKeptCountsFold(
  db: Db,
  intervalMs: number,
  log: { error: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  const foldAll = async () => {
    while ((await foldKeptCounts(db)) >= FOLD_BATCH) {
      // a burst (an expiry sweep, a bulk suspension) left more than a batch: take the next one now
    }
  };
  return everyInterval(intervalMs, foldAll, (err) => log.error({ err }, 'kept counts fold failed'));
}
