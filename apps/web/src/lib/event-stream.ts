import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';
import { API_BASE } from './api-client';
import { local } from './storage';

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
export function streamAllowed(): boolean {
  return !navigator.webdriver || local.get('liveEvents') === 'on';
}

export interface EventStreamOptions {
  /** The access token, read at every (re)connect so that a refreshed one is picked up. */
  token: () => string | null;
  /** Refreshes the tokens after a 401; resolves false when that failed. */
  refresh: () => Promise<boolean>;
  /** One event: its name (`order`, `ops`, `reset`, ...) and its parsed data. */
  onEvent: (event: string, data: Record<string, unknown>) => void;
  /** The stream reopened after a gap: what the backlog may not cover is to be refetched. */
  onReopen: () => void;
}

class Fatal extends Error {}

/**
 * Opens GET /api/v1/events (DECISIONS §12) with a fetch-based SSE client (the bearer token goes in the
 * Authorization header, which EventSource cannot send) and returns the function that closes it. Every
 * (re)connect reads the current access token (the library copies its `headers` once, so they would keep the
 * first token forever). The server ends a stream when its token expires or its session ends (DECISIONS §21),
 * saying why in a last `end` event: after TOKEN_EXPIRED the token is refreshed before reconnecting. The library
 * resumes with Last-Event-ID; a 401 refreshes the token once and reconnects; another 4xx ends the stream;
 * other failures and server-side closes reconnect with backoff; a hidden tab closes the stream and a visible
 * one reopens it (the library's default).
 */
export function openEventStream(o: EventStreamOptions): () => void {
  const ac = new AbortController();
  let failures = 0;
  let opened = false;
  let refreshFirst = false;
  void fetchEventSource(`${API_BASE}/api/v1/events`, {
    signal: ac.signal,
    async fetch(input, init) {
      if (refreshFirst) {
        refreshFirst = false;
        await o.refresh();
      }
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${o.token() ?? ''}`);
      return fetch(input, { ...init, headers });
    },
    async onopen(res) {
      if (res.ok && res.headers.get('content-type')?.startsWith(EventStreamContentType)) {
        if (opened) o.onReopen();
        opened = true;
        failures = 0;
        return;
      }
      if (res.status === 401 && (await o.refresh())) throw new Error('token refreshed');
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
      if (msg.event === 'end') {
        // the stream's own ending, not an app event: the token ran out, so a fresh one opens the next
        refreshFirst = data.reason === 'TOKEN_EXPIRED';
        return;
      }
      o.onEvent(msg.event || 'message', data);
    },
    onclose() {
      // the server ends streams (token lifetime, session ended, restarts): reconnect
      throw new Error('events: closed by the server');
    },
    onerror(err) {
      if (err instanceof Fatal || ac.signal.aborted) throw err;
      failures++;
      return backoffMs(failures);
    },
  }).catch(() => undefined);
  return () => ac.abort();
}
