import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { queryClient, restorePersistedQueries } from './query-client';

restorePersistedQueries();

/** Server state (TanStack Query) with the price cache persisted for 10 minutes (SPEC §9). */
export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    // The saving side is not needed to paint nor to use the page: it loads when the main thread is idle
    // (the rates it saves are in memory until then), not in the busy second after the first render.
    const start = () =>
      void import('./persist').then(({ startPersisting }) => {
        if (!cancelled) stop = startPersisting(queryClient);
      });
    const idle = 'requestIdleCallback' in window;
    const handle = idle
      ? window.requestIdleCallback(start, { timeout: 2_000 })
      : window.setTimeout(start, 3_000);
    return () => {
      cancelled = true;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
      stop?.();
    };
  }, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
