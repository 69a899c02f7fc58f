import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../../db/client.ts';
import { listenChannel } from '../../db/listen.ts';

/**
 * The channel the member_events trigger notifies on (010_trade_room.sql); the session triggers announce revoked
 * sessions on it too (016_session_end_notify.sql), so one listening connection serves both.
 */
export const EVENT_CHANNEL = 'trade_room';

/**
 * One committed live event: its backlog id, its member (null = every operator), its name and data. A `change`
 * (031_ledger_check_job_one_event.sql: one row per order state change however many are told) carries its parts in
 * `data.parts` ({m: member id | null, t: name, d: data}); `partsOf` unfolds it.
 */
export interface LiveEvent {
  id: number;
  memberId: number | null;
  type: 'order' | 'message' | 'notification' | 'ops' | 'transfer' | 'change';
  data: Record<string, unknown>;
}

/** A part of a `change` row as stored: m = the member told (null = every operator), t = event name, d = data. */
interface StoredPart {
  m: number | null;
  t: Exclude<LiveEvent['type'], 'change'>;
  d: Record<string, unknown>;
}

/** The events a row stands for: a `change` unfolded into its parts (each with the row's id), else the row itself. */
export function partsOf(e: LiveEvent): LiveEvent[] {
  if (e.type !== 'change') return [e];
  const parts = (e.data.parts ?? []) as StoredPart[];
  return parts.map((p) => ({ id: e.id, memberId: p.m === null ? null : Number(p.m), type: p.t, data: p.d }));
}

/**
 * A session that ended on some instance (DECISIONS §21): `sid` the revoked refresh-token family, or null when the
 * member was suspended (every session of theirs).
 */
export interface SessionEnd {
  memberId: number;
  sid: string | null;
}

/**
 * Committed events of every API instance (DECISIONS §12, §14, §21): PostgreSQL LISTEN on one dedicated
 * connection (outside the pool, which would hand a LISTENing connection to a query), reconnected with
 * backoff when it drops; embedded PGlite uses its own listen. `subscribe` gets the live events, `onSessionEnd`
 * the revoked sessions. `onReconnect` handlers run after the listener came back, so callers catch up from the
 * backlog (and recheck their streams' sessions) on what they may have missed meanwhile.
 */
export interface EventBus {
  subscribe(handler: (e: LiveEvent) => void): void;
  onSessionEnd(handler: (e: SessionEnd) => void): void;
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

function parse(payload: string | undefined): LiveEvent | SessionEnd | null {
  if (!payload) return null;
  try {
    const raw = JSON.parse(payload) as {
      id: number;
      m: number | null;
      t: LiveEvent['type'];
      d: LiveEvent['data'];
      end?: string | null;
    };
    if ('end' in raw) {
      if (raw.m === null) return null;
      return { memberId: Number(raw.m), sid: typeof raw.end === 'string' ? raw.end : null };
    }
    return { id: Number(raw.id), memberId: raw.m === null ? null : Number(raw.m), type: raw.t, data: raw.d };
  } catch {
    return null;
  }
}

/** Starts listening; never throws for a database that is down (the listener retries until it is back). */
export async function startEventBus(dbh: DbHandle, log: FastifyBaseLogger): Promise<EventBus> {
  const handlers: ((e: LiveEvent) => void)[] = [];
  const endings: ((e: SessionEnd) => void)[] = [];
  const reconnects: (() => void)[] = [];
  const run = <T>(list: ((e: T) => void)[], e: T) => {
    for (const h of list) {
      try {
        h(e);
      } catch (err) {
        log.error({ err }, 'live event handler failed');
      }
    }
  };
  const emit = (payload: string | undefined) => {
    const e = parse(payload);
    if (!e) return;
    if ('sid' in e) run(endings, e);
    else run(handlers, e);
  };
  const base = {
    subscribe: (h: (e: LiveEvent) => void) => {
      handlers.push(h);
    },
    onSessionEnd: (h: (e: SessionEnd) => void) => {
      endings.push(h);
    },
    onReconnect: (h: () => void) => {
      reconnects.push(h);
    },
  };

  const listener = await listenChannel(dbh, EVENT_CHANNEL, log, {
    onMessage: emit,
    onReconnect: () => {
      for (const r of reconnects) r();
    },
  });
  return { ...base, close: () => listener.close() };
}
