import type { Page } from '@p2p/contract';

// The capped total lives beside the count that makes it (db/ may not import http/).
import type { CappedTotal } from '../db/capped-count.ts';

export { type CappedTotal, capTotal } from '../db/capped-count.ts';
export type { Page };

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
