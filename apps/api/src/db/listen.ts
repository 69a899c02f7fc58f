import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DbHandle } from './client.ts';

/** What a listener calls: each payload of its channel, and (PostgreSQL) its connection's ups and downs. */
export interface ChannelHandlers {
  /** A committed notification of the channel (pg_notify is delivered only on commit). */
  onMessage(payload: string | undefined): void;
  /** The connection came back after a loss: whatever was notified meanwhile was missed. */
  onReconnect?(): void;
  /** The connection was lost: nothing arrives until onReconnect. */
  onLost?(): void;
}

/** One LISTEN of one channel; `live` is false while notifications cannot arrive (connecting, lost). */
export interface ChannelListener {
  readonly live: boolean;
  close(): Promise<void>;
}

const CHANNEL_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * LISTENs on `channel` (DECISIONS §12, §14): on PostgreSQL one dedicated connection outside the pool (the pool
 * would hand a LISTENing connection to a query), reconnected with backoff when it drops; embedded PGlite uses its
 * own listen and is always live. Never throws for a database that is down: it retries until it is back.
 */
export async function listenChannel(
  dbh: DbHandle,
  channel: string,
  log: FastifyBaseLogger,
  handlers: ChannelHandlers,
): Promise<ChannelListener> {
  if (!CHANNEL_RE.test(channel)) throw new Error(`listen: bad channel name ${channel}`);
  if (dbh.pglite) {
    const unlisten = await dbh.pglite.listen(channel, (payload) => handlers.onMessage(payload));
    // The database may already be closed by the app's own onClose hook (hook order is not ours to pick);
    // its listener is gone with it then.
    return { live: true, close: () => unlisten().catch(() => undefined) };
  }
  const url = dbh.databaseUrl;
  if (!url) throw new Error('listen: neither PGlite nor a DATABASE_URL');

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
      const wasLive = client === c;
      if (wasLive) client = null;
      c.end().catch(() => undefined);
      if (!closed) {
        if (wasLive) handlers.onLost?.();
        log.warn({ err, channel }, 'listener lost its database connection; reconnecting');
        schedule();
      }
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onMessage(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
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
    if (everConnected) handlers.onReconnect?.();
    everConnected = true;
  };

  await connect();
  return {
    get live() {
      return client !== null;
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
