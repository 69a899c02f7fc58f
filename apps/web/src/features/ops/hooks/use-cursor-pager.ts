import { useCallback, useEffect, useState } from 'react';

/**
 * Page-by-page navigation over a keyset list: remembers the cursor of every page visited so that
 * "previous" works although the API only answers a next cursor. Goes back to page 1 when `resetKey` changes
 * (a new filter).
 */
export function useCursorPager(resetKey: string) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  useEffect(() => {
    // A new filter starts again from the first page (resetKey is the dependency that matters).
    if (resetKey !== undefined) setCursors([undefined]);
  }, [resetKey]);
  const cursor = cursors[cursors.length - 1];
  const next = useCallback((nextCursor: string | null) => {
    if (nextCursor) setCursors((c) => [...c, nextCursor]);
  }, []);
  const prev = useCallback(() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)), []);
  return { cursor, page: cursors.length, hasPrev: cursors.length > 1, next, prev };
}
