import { LIMITS } from '@p2p/contract/limits.ts';
import { hydrate, QueryClient } from '@tanstack/react-query';
import { companyQueryOptions } from '../components/layout/get-company';
import { bestListingsQueryOptions } from '../features/home/api/get-best-listings';
import { pricesQueryOptions } from '../features/home/api/get-prices';
import { opsQueryRoot } from '../features/ops/api/query-root';
import { tradeListingsKey } from '../features/trade/api/get-trade-listings';
import { ApiError } from '../lib/api-client';
import { local, STORAGE_KEYS } from '../lib/storage';

const PRICES = pricesQueryOptions().queryKey[0];
const BEST = bestListingsQueryOptions().queryKey[0];

/** Query roots kept in localStorage `root` across reloads (SPEC §3: crypto data only, never auth). */
export const PERSISTED_QUERY_ROOTS: readonly unknown[] = [PRICES];

/** Query roots a deliberate logout keeps (SPEC §4): the public rates and popular listings. */
export const LOGOUT_KEPT_QUERY_ROOTS: readonly unknown[] = [PRICES, BEST];

/**
 * Query roots anyone may see; the rest is a member's and goes when the server ends the session (the
 * console's queries belong to the operator session, not the member's).
 */
export const PUBLIC_QUERY_ROOTS: readonly unknown[] = [
  PRICES,
  BEST,
  tradeListingsKey[0],
  companyQueryOptions().queryKey[0],
  opsQueryRoot[0],
];

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
