import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../../db/client.ts';
import { listenChannel } from '../../db/listen.ts';
import { eventsInRuns } from './repo.ts';

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

/** A row as 010 and 028 put it in a payload: id, m = member id | null, t = name, d = data. */
interface RawEvent {
  id: number | string;
  m: number | string | null;
  t: LiveEvent['type'];
  d: LiveEvent['data'];
}

const toEvent = (r: RawEvent): LiveEvent => ({
  id: Number(r.id),
  memberId: r.m === null ? null : Number(r.m),
  type: r.t,
  data: r.d,
});

/**
 * What one NOTIFY on the channel says: `events` (028's small statement {b: [row...]}, or 010's single row), `runs`
 * (028's larger statement {r: [[lo, hi]...]}: the listener reads those rows back), `end` (016: a session ended).
 */
export type BusMessage =
  | { kind: 'events'; events: LiveEvent[] }
  | { kind: 'runs'; runs: [number, number][] }
  | { kind: 'end'; end: SessionEnd };

/** Reads one payload of the channel; null for one it does not know (never throws). */
export function parseMessage(payload: string | undefined): BusMessage | null {
  if (!payload) return null;
  try {
    const raw = JSON.parse(payload) as Partial<RawEvent> & {
      end?: string | null;
      b?: RawEvent[];
      r?: [number | string, number | string][];
    };
    if ('end' in raw) {
      if (raw.m === null || raw.m === undefined) return null;
      return {
        kind: 'end',
        end: { memberId: Number(raw.m), sid: typeof raw.end === 'string' ? raw.end : null },
      };
    }
    if (Array.isArray(raw.b)) return { kind: 'events', events: raw.b.map(toEvent) };
    if (Array.isArray(raw.r))
      return { kind: 'runs', runs: raw.r.map(([lo, hi]) => [Number(lo), Number(hi)]) };
    if (raw.id !== undefined) return { kind: 'events', events: [toEvent(raw as RawEvent)] };
    return null;
  } catch {
    return null;
  }
}

/** Waits before reading a statement's rows again after a failed read (ms; doubles up to the cap). */
const RETRY_MS = 250;
const RETRY_MAX_MS = 5_000;

/**
 * Hands the live events of the channel's messages to `deliver` in the order they were notified: a statement's
 * rows named by id runs are read back (one query) while later messages wait behind them, so ids never overtake
 * each other and every row is delivered once. A failed read is retried (the rows are committed: NOTIFY comes on
 * commit) until it succeeds or the bus closes.
 */
function orderedDelivery(
  dbh: DbHandle,
  log: FastifyBaseLogger,
  deliver: (events: LiveEvent[]) => void,
): { push(m: BusMessage & { kind: 'events' | 'runs' }): void; close(): void } {
  const queue: (BusMessage & { kind: 'events' | 'runs' })[] = [];
  let pumping = false;
  let closed = false;
  const read = async (runs: [number, number][]): Promise<LiveEvent[]> => {
    for (let wait = RETRY_MS; !closed; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      try {
        return (await eventsInRuns(dbh.db, runs)).map((r) => ({
          id: Number(r.id),
          memberId: r.member_id === null ? null : Number(r.member_id),
          type: r.type,
          data: r.data,
        }));
      } catch (err) {
        log.warn({ err }, "live events: reading a statement's rows failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
      }
    }
    return [];
  };
  const pump = async () => {
    pumping = true;
    for (let m = queue.shift(); m && !closed; m = queue.shift()) {
      deliver(m.kind === 'events' ? m.events : await read(m.runs));
    }
    pumping = false;
  };
  return {
    push(m) {
      if (closed) return;
      // nothing waiting: rows that came in the payload go out at once
      if (!pumping && m.kind === 'events') {
        deliver(m.events);
        return;
      }
      queue.push(m);
      if (!pumping) void pump();
    },
    close() {
      closed = true;
      queue.length = 0;
    },
  };
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
  const ordered = orderedDelivery(dbh, log, (events) => {
    for (const e of events) run(handlers, e);
  });
  const emit = (payload: string | undefined) => {
    const m = parseMessage(payload);
    if (!m) return;
    if (m.kind === 'end') run(endings, m.end);
    else ordered.push(m);
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
  return {
    ...base,
    close: () => {
      ordered.close();
      return listener.close();
    },
  };
}
