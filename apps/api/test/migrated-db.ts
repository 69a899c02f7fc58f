import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../src/db/client.ts';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.ts';

/**
 * A migrated, otherwise empty database for the PGlite tests, made once and copied: every test file opens one
 * or more fresh databases, and PGlite's initdb costs 2.5-4 s of CPU for each on this machine. Every test app
 * still runs `migrate` through buildApp, which finds nothing left to apply; the migrations themselves run from
 * nothing when the copy is made and in test/start.test.ts. (PostgreSQL's fresh databases are made in 0.3 s;
 * copying a migrated template there saved nothing measurable.)
 */

/** What a copy depends on: every migration's name and text, and the PGlite build. */
function migrationsKey(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) {
    h.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)));
  }
  // The package's exports hide its package.json; its entry file identifies the build as well.
  h.update(readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  return h.digest('hex').slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;

/**
 * A migrated PGlite data directory as a tarball (PGlite's dumpDataDir), to load into an in-memory PGlite:
 * 0.5-0.7 s against 2.5-4 s for a new cluster on this machine. Written once per key to the temp folder
 * (atomically: parallel workers may both write it) and reused by later runs.
 */
export function migratedPgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = join(tmpdir(), `p2p-pglite-migrated-${migrationsKey()}.tar`);
    if (!existsSync(file)) {
      const dbh = await openDb({ dataDir: '', inMemory: true });
      await migrate(dbh);
      const dump = await dbh.pglite?.dumpDataDir('none');
      await dbh.close();
      if (!dump) throw new Error('PGlite gave no data directory dump');
      const part = `${file}.${process.pid}.part`;
      writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
      renameSync(part, file);
    }
    return new Blob([readFileSync(file)]);
  })();
  return snapshot;
}
