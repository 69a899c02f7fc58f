import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE, refreshTokens } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { local, STORAGE_KEYS } from '../../lib/storage';
import { notificationKeys } from './api';

/** The caches a live event makes stale (DESIGN "requests": invalidate, never patch by hand). */
const ORDER_KEYS = [['order'], ['order-counts'], ['buy-history'], ['sell-history'], ['my-sell']];

function invalidate(qc: QueryClient, event: string, data: Record<string, unknown>): void {
  if (event === 'order') for (const queryKey of ORDER_KEYS) void qc.invalidateQueries({ queryKey });
  if (event === 'message' && typeof data.orderId === 'number') {
    void qc.invalidateQueries({ queryKey: ['order-messages', data.orderId] });
  }
  if (event === 'notification') void qc.invalidateQueries({ queryKey: notificationKeys.all });
  if (event === 'ops') void qc.invalidateQueries({ queryKey: ['ops'] });
  if (event === 'reset') {
    for (const queryKey of [...ORDER_KEYS, notificationKeys.all]) void qc.invalidateQueries({ queryKey });
  }
}

class Fatal extends Error {}

/** Reconnect delay after the n-th failure in a row: 1 s doubling to 30 s, with jitter (no thundering herd). */
export function backoffMs(failures: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * False in a browser driven by automation (navigator.webdriver) unless the page opted in with
 * localStorage `liveEvents` = `on`: a stream is a request that never ends, and browser tests that wait
 * for the network to go quiet (networkidle) would wait for it forever. Real browsers always stream.
 */
function streamAllowed(): boolean {
  return !navigator.webdriver || local.get('liveEvents') === 'on';
}

/**
 * Keeps one GET /api/v1/events stream open while the member is signed in (DECISIONS §12) with a
 * fetch-based SSE client (the bearer token goes in the Authorization header, which EventSource cannot
 * send), and invalidates the TanStack Query caches its events concern, so order screens, badges and lists
 * update without a reload. The library resumes with Last-Event-ID; a 401 refreshes the token once and
 * reconnects; other failures reconnect with backoff; a hidden tab closes the stream and a visible one
 * reopens it (the library's default), refetching what changed meanwhile.
 */
export function useLiveEvents(): void {
  const qc = useQueryClient();
  const signedIn = useSession((st) => Boolean(st.accessToken));
  useEffect(() => {
    if (!signedIn || !streamAllowed()) return;
    const ac = new AbortController();
    let failures = 0;
    let opened = false;
    void fetchEventSource(`${API_BASE}/api/v1/events`, {
      signal: ac.signal,
      // read at every (re)connect: a refreshed token is picked up
      get headers() {
        return { authorization: `Bearer ${local.get(STORAGE_KEYS.accessToken) ?? ''}` };
      },
      async onopen(res) {
        if (res.ok && res.headers.get('content-type')?.startsWith(EventStreamContentType)) {
          // after a gap, what the backlog may not cover is refetched
          if (opened) invalidate(qc, 'reset', {});
          opened = true;
          failures = 0;
          return;
        }
        if (res.status === 401 && (await refreshTokens())) throw new Error('token refreshed');
        if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new Fatal(String(res.status));
        throw new Error(`events: HTTP ${res.status}`);
      },
      onmessage(msg) {
        let data: Record<string, unknown> = {};
        try {
          data = msg.data ? (JSON.parse(msg.data) as Record<string, unknown>) : {};
        } catch {
          return;
        }
        invalidate(qc, msg.event || 'message', data);
      },
      onclose() {
        // the server ends streams (token lifetime, restarts): reconnect
        throw new Error('events: closed by the server');
      },
      onerror(err) {
        if (err instanceof Fatal || ac.signal.aborted) throw err;
        failures++;
        return backoffMs(failures);
      },
    }).catch(() => undefined);
    return () => ac.abort();
  }, [qc, signedIn]);
}
