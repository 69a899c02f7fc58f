import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { usePreparedStatements } from './prepared.ts';
import type { DB } from './schema.ts';

// int8 (counts, identity ids) as numbers, as PGlite already does; ids stay far below 2^53.
// NUMERIC stays a string on both drivers: coin amounts are never parsed into floats.
pg.types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Runs a multi-statement SQL script inside `tx` (PGlite's extended protocol takes one statement per query). */
  execScript(tx: Tx, script: string): Promise<void>;
  /**
   * Registers a listener for connections lost outside any query (DECISIONS §14): the pool has already
   * dropped the connection and goes on; the listener only reports it. PGlite never calls it.
   */
  onConnectionError(listener: (err: Error) => void): void;
  /** The embedded PGlite instance (its LISTEN/NOTIFY feeds the live events); null on PostgreSQL. */
  pglite: PGlite | null;
  /** The PostgreSQL connection string (a dedicated LISTEN connection uses it); null on PGlite. */
  databaseUrl: string | null;
  /** The PostgreSQL pool's connections right now (metrics); null on PGlite, which has one session. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

/** How long a request waits for a pooled connection before it fails with DB_UNAVAILABLE (DECISIONS §14). */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Marks an error raised while opening a connection: whatever its SQLSTATE, the database was not reachable. */
const CONNECT_FAILED = Symbol('connectFailed');

// Class 08 = connection exception; 57P01..57P03 = terminated by an administrator, crash or shutdown, or
// not accepting connections yet.
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// The texts node-postgres and pg-pool use when a socket died or never came up (they carry no code).
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|Client was closed|not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

/**
 * True when `err` means the database cannot be reached (DECISIONS §14): a failure to open a connection, a
 * connection-level SQLSTATE, a socket error code or one of the driver's "connection terminated" texts. The
 * error handler answers these with 503 DB_UNAVAILABLE instead of 500.
 */
export function isDbUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  if (CONNECT_FAILED in err) return true;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  if (code && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  return err instanceof Error && UNAVAILABLE_MESSAGE.test(err.message);
}

function markConnectFailed(err: unknown): unknown {
  if (typeof err === 'object' && err !== null) Object.defineProperty(err, CONNECT_FAILED, { value: true });
  return err;
}

/**
 * A PGlite instance in memory (from `loadDataDir` when given) or under `<dataDir>/pglite`, with pg_trgm loaded:
 * the operator member search's trigram index (migration 030) as on PostgreSQL.
 */
function newPglite(opts: { dataDir: string; inMemory?: boolean; loadDataDir?: Blob }): PGlite {
  const extensions = { pg_trgm };
  if (opts.inMemory)
    return new PGlite({ extensions, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return new PGlite(dir, { extensions });
}

/**
 * Opens the database (DECISIONS §9): PostgreSQL when `databaseUrl` is set, else embedded PGlite under
 * `<dataDir>/pglite` (or in memory when `inMemory`). Both speak the same SQL and run the same migrations.
 */
export async function openDb(opts: {
  databaseUrl?: string;
  dataDir: string;
  inMemory?: boolean;
  /**
   * In-memory PGlite only: start from this data directory tarball (PGlite's dumpDataDir) instead of an empty
   * cluster. The tests pass an already migrated one: PGlite's initdb costs 2.5-4 s per database here.
   */
  loadDataDir?: Blob;
  /** PostgreSQL only: named prepared statements (db/prepared.ts; PG_PREPARED_STATEMENTS). Default true. */
  preparedStatements?: boolean;
}): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 20,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const listeners: ((err: Error) => void)[] = [];
    const report = (err: Error) => {
      for (const l of listeners) l(err);
    };
    // Without these listeners a connection that dies (pg_terminate_backend, a database restart, a network cut)
    // emits an unhandled 'error' and ends the process. Idle connections report through the pool; a checked-out
    // client has no pool listener, so every client gets its own. The failing query itself still rejects and
    // the pool drops the dead client when it is released.
    pool.on('error', report);
    pool.on('connect', (client) => {
      client.on('error', report);
      if (opts.preparedStatements !== false) usePreparedStatements(client);
    });
    const dialectPool = {
      connect: () =>
        pool.connect().catch((err: unknown) => {
          throw markConnectFailed(err);
        }),
      end: () => pool.end(),
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: dialectPool }) });
    return {
      db,
      kind: 'postgres',
      execScript: async (tx, script) => {
        await sql.raw(script).execute(tx);
      },
      onConnectionError: (listener) => {
        listeners.push(listener);
      },
      pglite: null,
      databaseUrl: opts.databaseUrl,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  const client = newPglite(opts);
  await client.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    // The dialect serializes every use of the single PGlite session, and `tx` holds it now,
    // so exec on the client runs inside that open transaction.
    execScript: async (_tx, script) => {
      await client.exec(script);
    },
    onConnectionError: () => undefined,
    pglite: client,
    databaseUrl: null,
    poolStats: () => null,
    close: () => db.destroy(),
  };
}
