import { type Page, TOTAL_COUNT_CAP } from '@p2p/contract';

export type { Page };

/** A list's total as counted up to TOTAL_COUNT_CAP (db/capped-count.ts): the number and whether it was cut. */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

/** A capped total from the count of at most TOTAL_COUNT_CAP + 1 rows. */
export function capTotal(n: number): CappedTotal {
  return n > TOTAL_COUNT_CAP ? { total: TOTAL_COUNT_CAP, capped: true } : { total: n, capped: false };
}

/**
 * Cuts the `size + 1` rows a keyset query fetched into one page (SPEC §7 lists: `{list, nextCursor,
 * totalCount}`): the extra row only tells that there is a next page, whose cursor names the last row returned.
 * `map` turns a row into its wire shape, `cursorOf` a row into the opaque cursor (http/cursor.ts). A capped
 * total (a long history, issue 27) adds `totalCapped: true` when it was cut.
 */
export function toPage<R, T>(
  rows: R[],
  size: number,
  totalCount: number | CappedTotal,
  map: (r: R) => T,
  cursorOf: (r: R) => string,
): Page<T> {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  const nextCursor = rows.length > size && last ? cursorOf(last) : null;
  if (typeof totalCount === 'number') return { list: page.map(map), nextCursor, totalCount };
  return {
    list: page.map(map),
    nextCursor,
    totalCount: totalCount.total,
    ...(totalCount.capped ? { totalCapped: true } : {}),
  };
}
