import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DbHandle } from '../../db/client.ts';

/** The channel the member_events trigger notifies on (010_trade_room.sql). */
export const EVENT_CHANNEL = 'trade_room';

/** One committed live event: its backlog id, its member (null = every operator), its name and data. */
export interface LiveEvent {
  id: number;
  memberId: number | null;
  type: 'order' | 'message' | 'notification' | 'ops';
  data: Record<string, unknown>;
}

/**
 * Committed events of every API instance (DECISIONS §12, §14): PostgreSQL LISTEN on one dedicated
 * connection (outside the pool, which would hand a LISTENing connection to a query), reconnected with
 * backoff when it drops; embedded PGlite uses its own listen. `onReconnect` handlers run after the
 * listener came back, so callers catch up from the backlog on what they may have missed meanwhile.
 */
export interface EventBus {
  subscribe(handler: (e: LiveEvent) => void): void;
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

function parse(payload: string | undefined): LiveEvent | null {
  if (!payload) return null;
  try {
    const raw = JSON.parse(payload) as {
      id: number;
      m: number | null;
      t: LiveEvent['type'];
      d: LiveEvent['data'];
    };
    return { id: Number(raw.id), memberId: raw.m === null ? null : Number(raw.m), type: raw.t, data: raw.d };
  } catch {
    return null;
  }
}

/** Starts listening; never throws for a database that is down (the listener retries until it is back). */
export async function startEventBus(dbh: DbHandle, log: FastifyBaseLogger): Promise<EventBus> {
  const handlers: ((e: LiveEvent) => void)[] = [];
  const reconnects: (() => void)[] = [];
  const emit = (payload: string | undefined) => {
    const e = parse(payload);
    if (!e) return;
    for (const h of handlers) {
      try {
        h(e);
      } catch (err) {
        log.error({ err }, 'live event handler failed');
      }
    }
  };
  const base = {
    subscribe: (h: (e: LiveEvent) => void) => {
      handlers.push(h);
    },
    onReconnect: (h: () => void) => {
      reconnects.push(h);
    },
  };

  if (dbh.pglite) {
    const unlisten = await dbh.pglite.listen(EVENT_CHANNEL, emit);
    // The database may already be closed by the app's own onClose hook (hook order is not ours to pick);
    // its listener is gone with it then.
    return { ...base, close: () => unlisten().catch(() => undefined) };
  }
  const url = dbh.databaseUrl;
  if (!url) throw new Error('event bus: neither PGlite nor a DATABASE_URL');

  let closed = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delayMs = 500;
  let everConnected = false;

  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delayMs);
    timer.unref();
    delayMs = Math.min(delayMs * 2, 30_000);
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    let failed = false;
    const lost = (err?: Error) => {
      if (failed) return;
      failed = true;
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (!closed) {
        log.warn({ err }, 'live event listener lost its database connection; reconnecting');
        schedule();
      }
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel === EVENT_CHANNEL) emit(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${EVENT_CHANNEL}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    delayMs = 500;
    if (everConnected) for (const r of reconnects) r();
    everConnected = true;
  };

  await connect();
  return {
    ...base,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
