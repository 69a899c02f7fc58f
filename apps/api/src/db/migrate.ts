import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { DbHandle } from './client.ts';

/** The folder of the SQL migrations (also hashed by the tests' migrated PGlite snapshot). */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the SQL files of db/migrations in name order, each once, each in its own transaction
 * (DECISIONS §9: one set of migrations for PostgreSQL and PGlite). An advisory lock keeps several API
 * instances starting together from applying the same file twice.
 */
export async function migrate(handle: DbHandle): Promise<string[]> {
  const { db } = handle;
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(74219001)`.execute(tx);
    await sql`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`.execute(tx);
    const done = await sql<{ name: string }>`select name from schema_migrations`.execute(tx);
    const doneSet = new Set(done.rows.map((r) => r.name));
    for (const file of files) {
      if (doneSet.has(file)) continue;
      await handle.execScript(tx, readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      await sql`insert into schema_migrations (name) values (${file})`.execute(tx);
      applied.push(file);
    }
  });
  return applied;
}
