import { LIMITS } from '@p2p/contract/limits.ts';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { STORAGE_KEYS } from '../lib/storage';

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

export const persister = createSyncStoragePersister({
  storage: typeof window === 'undefined' ? undefined : window.localStorage,
  key: STORAGE_KEYS.persistedRoot,
});

export const persistOptions = {
  persister,
  maxAge: LIMITS.priceCacheMs,
  dehydrateOptions: {
    shouldDehydrateQuery: (q: { queryKey: readonly unknown[]; state: { status: string } }) =>
      q.state.status === 'success' && PERSISTED_QUERY_ROOTS.includes(String(q.queryKey[0])),
  },
};
