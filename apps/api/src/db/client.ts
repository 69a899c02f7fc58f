import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
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
  close(): Promise<void>;
}

/**
 * Opens the database (DECISIONS §9): PostgreSQL when `databaseUrl` is set, else embedded PGlite under
 * `<dataDir>/pglite` (or in memory when `inMemory`). Both speak the same SQL and run the same migrations.
 */
export async function openDb(opts: {
  databaseUrl?: string;
  dataDir: string;
  inMemory?: boolean;
}): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      execScript: async (tx, script) => {
        await sql.raw(script).execute(tx);
      },
      close: () => db.destroy(),
    };
  }
  let client: PGlite;
  if (opts.inMemory) {
    client = new PGlite();
  } else {
    const dir = join(opts.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
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
    close: () => db.destroy(),
  };
}
