import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { QueryClient } from '@tanstack/react-query';
import { persistQueryClientSave, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { STORAGE_KEYS } from '../lib/storage';
import { PERSISTED_QUERY_ROOTS } from './query-client';

/**
 * Saves the price queries to localStorage `root` whenever they change (SPEC §3, §9). A lazy chunk: the
 * restore on startup is query-client.ts's restorePersistedQueries.
 */
export function startPersisting(client: QueryClient): () => void {
  const options = {
    // The persister package carries its own copy of query-core; the client object is the same at run time.
    queryClient: client as unknown as Parameters<typeof persistQueryClientSave>[0]['queryClient'],
    persister: createSyncStoragePersister({ storage: window.localStorage, key: STORAGE_KEYS.persistedRoot }),
    dehydrateOptions: {
      shouldDehydrateQuery: (q: { queryKey: readonly unknown[]; state: { status: string } }) =>
        q.state.status === 'success' && PERSISTED_QUERY_ROOTS.includes(q.queryKey[0]),
    },
  };
  // Rates that arrived before this chunk did are saved now, later changes as they happen.
  void persistQueryClientSave(options);
  return persistQueryClientSubscribe(options);
}
