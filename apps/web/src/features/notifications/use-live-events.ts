import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client';
import { openEventStream, streamAllowed } from '../../lib/event-stream';
import { useSession } from '../../lib/session';
import { local, STORAGE_KEYS } from '../../lib/storage';
// Deep imports on purpose: this hook runs in the landing page's entry chunk, which must not load the
// trade screens (the trade feature's index), the wallet screens or the console.
import { opsQueryRoot } from '../ops/api/query-root';
import { chatQueries } from '../trade/api/order-messages';
import { orderViewKeys } from '../trade/api/order-queries';
import { transfersKey } from '../wallet/api/get-transfers';
import { walletsQueryOptions } from '../wallet/api/get-wallets';
import { notificationKeys } from './api';

function invalidate(qc: QueryClient, event: string, data: Record<string, unknown>): void {
  // the caches a live event makes stale (DESIGN "requests": invalidate, never patch by hand)
  if (event === 'order') for (const queryKey of orderViewKeys()) void qc.invalidateQueries({ queryKey });
  if (event === 'message' && typeof data.orderId === 'number') {
    void qc.invalidateQueries({ queryKey: chatQueries.ofOrder(data.orderId) });
  }
  if (event === 'notification') void qc.invalidateQueries({ queryKey: notificationKeys.all });
  if (event === 'ops') void qc.invalidateQueries({ queryKey: opsQueryRoot });
  // a deposit seen, confirming, credited or dropped: its history row and the balance it may have moved
  if (event === 'transfer') {
    void qc.invalidateQueries({ queryKey: transfersKey });
    void qc.invalidateQueries({ queryKey: walletsQueryOptions().queryKey });
  }
  if (event === 'reset') {
    for (const queryKey of [
      ...orderViewKeys(),
      notificationKeys.all,
      transfersKey,
      walletsQueryOptions().queryKey,
    ])
      void qc.invalidateQueries({ queryKey });
  }
}

/**
 * Keeps one GET /api/v1/events stream open while the member is signed in (DECISIONS §12) with a
 * fetch-based SSE client (the bearer token goes in the Authorization header, which EventSource cannot
 * send), and invalidates the TanStack Query caches its events concern, so order screens, badges and lists
 * update without a reload (lib/event-stream.ts). The library resumes with Last-Event-ID; a 401 refreshes the token once and
 * reconnects; other failures reconnect with backoff; a hidden tab closes the stream and a visible one
 * reopens it (the library's default), refetching what changed meanwhile.
 */
export function useLiveEvents(): void {
  const qc = useQueryClient();
  const signedIn = useSession((st) => Boolean(st.accessToken));
  useEffect(() => {
    if (!signedIn || !streamAllowed()) return;
    return openEventStream({
      token: () => local.get(STORAGE_KEYS.accessToken),
      refresh: api.refreshTokens,
      onEvent: (event, data) => invalidate(qc, event, data),
      // after a gap, what the backlog may not cover is refetched
      onReopen: () => invalidate(qc, 'reset', {}),
    });
  }, [qc, signedIn]);
}
