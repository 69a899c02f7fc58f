import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { queryClient, restorePersistedQueries } from './query-client';

restorePersistedQueries();

/** Server state (TanStack Query) with the price cache persisted for 10 minutes (SPEC §9). */
export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    // The saving side is not needed to paint: it loads after the first render.
    void import('./persist').then(({ startPersisting }) => {
      if (!cancelled) stop = startPersisting(queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
