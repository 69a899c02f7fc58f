import { TOTAL_COUNT_CAP } from '@p2p/contract';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { DbOrTx } from './client.ts';
import type { DB } from './schema.ts';

/** A list's total as counted up to TOTAL_COUNT_CAP (cappedCount below): the number and whether it was cut. */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

/** A capped total from the count of at most `cap` + 1 rows (TOTAL_COUNT_CAP unless a list says less). */
export function capTotal(n: number, cap: number = TOTAL_COUNT_CAP): CappedTotal {
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/**
 * The total of a list counted up to TOTAL_COUNT_CAP (issue 27): `rows` is the list's FROM and WHERE (no
 * selection, no order); at most TOTAL_COUNT_CAP + 1 of its rows are read, so a page of a two-million-row history
 * costs what a page of a short one does. `{ total, capped }`, `capped` when there were more than the cap.
 * `cap` lowers the cap for a list whose rows cost more to count (a member search's matches, SEARCH_COUNT_CAP).
 */
export async function cappedCount<TB extends keyof DB>(
  db: DbOrTx,
  rows: SelectQueryBuilder<DB, TB, object>,
  cap: number = TOTAL_COUNT_CAP,
): Promise<CappedTotal> {
  const r = await db
    .selectFrom(
      rows
        .select(sql<number>`1`.as('one'))
        // a literal (issue 27): a generic plan for "limit $1" guesses 10% of the rows, so on a big table
        // PostgreSQL planned the count anew on every read instead of keeping one plan
        .limit(sql.lit(cap + 1))
        .as('c'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return capTotal(Number(r.n), cap);
}

/** cappedCount of two disjoint row sets (a member's orders as buyer and as seller): each read up to the cap. */
export async function cappedCountOfBoth<TB extends keyof DB>(
  db: DbOrTx,
  a: SelectQueryBuilder<DB, TB, object>,
  b: SelectQueryBuilder<DB, TB, object>,
): Promise<CappedTotal> {
  const [x, y] = await Promise.all([cappedCount(db, a), cappedCount(db, b)]);
  return capTotal(x.total + y.total + (x.capped || y.capped ? 1 : 0));
}
