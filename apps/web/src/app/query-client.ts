import { LIMITS } from '@p2p/contract/limits.ts';
import { hydrate, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { local, STORAGE_KEYS } from '../lib/storage';

/** Query roots kept in localStorage `root` across reloads (SPEC §3: crypto data only, never auth). */
export const PERSISTED_QUERY_ROOTS: readonly string[] = ['prices'];

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (4xx) will not heal by retrying; transport errors get one more try.
      retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      refetchOnWindowFocus: false,
      gcTime: LIMITS.priceCacheMs,
    },
  },
});

/**
 * Puts the rates saved under `root` back into the cache before the first render, so a reload shows them at
 * once (SPEC §9). Reads the format of @tanstack/query-sync-storage-persister, which saves them (persist.ts);
 * done here without it to keep the persister out of the landing page's entry chunk (DECISIONS §16).
 */
export function restorePersistedQueries(client: QueryClient = queryClient): void {
  try {
    const saved = JSON.parse(local.get(STORAGE_KEYS.persistedRoot) ?? 'null') as {
      timestamp?: number;
      buster?: string;
      clientState?: Parameters<typeof hydrate>[1];
    } | null;
    if (!saved?.timestamp || !saved.clientState) return;
    if (Date.now() - saved.timestamp > LIMITS.priceCacheMs || (saved.buster ?? '') !== '') {
      local.remove(STORAGE_KEYS.persistedRoot);
      return;
    }
    hydrate(client, saved.clientState);
  } catch {
    local.remove(STORAGE_KEYS.persistedRoot);
  }
}
