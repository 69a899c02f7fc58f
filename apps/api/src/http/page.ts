import type { Page } from '@p2p/contract';

export type { Page };

/**
 * Cuts the `size + 1` rows a keyset query fetched into one page (SPEC §7 lists: `{list, nextCursor,
 * totalCount}`): the extra row only tells that there is a next page, whose cursor names the last row returned.
 * `map` turns a row into its wire shape, `cursorOf` a row into the opaque cursor (http/cursor.ts).
 */
export function toPage<R, T>(
  rows: R[],
  size: number,
  totalCount: number,
  map: (r: R) => T,
  cursorOf: (r: R) => string,
): Page<T> {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { list: page.map(map), nextCursor: rows.length > size && last ? cursorOf(last) : null, totalCount };
}
