import { useCallback, useEffect, useState } from 'react';

/** Where a keyset list stands: the cursor to load, the 1-based page number and the moves. */
export interface CursorPager {
  cursor: string | undefined;
  page: number;
  hasPrev: boolean;
  /** Moves on to the page starting at `nextCursor` (ignored when null: no more pages). */
  next: (nextCursor: string | null) => void;
  prev: () => void;
}

/**
 * Page-by-page navigation over a keyset list: remembers the cursor of every page visited so that
 * "previous" works although the API only answers a next cursor. Goes back to page 1 when `resetKey` changes
 * (a new filter).
 */
export function useCursorPager(resetKey: string): CursorPager {
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
