import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../src/db/client.ts';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.ts';

/** What the snapshot depends on: every migration's name and text, and the PGlite build that wrote it. */
function snapshotKey(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort())
    h.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)));
  // The package's exports hide its package.json; its entry file identifies the build as well.
  h.update(readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  return h.digest('hex').slice(0, 16);
}

let memo: Promise<Blob> | undefined;

/**
 * A migrated, otherwise empty PGlite data directory (a tarball of PGlite's dumpDataDir) for the tests'
 * in-memory databases. PGlite runs initdb for every new cluster, 2.5-4 s of CPU on this machine against
 * 0.5-0.7 s to load this tarball, and the API tests open one per file or more. The tarball is written once per
 * set of migrations and PGlite build to the temp folder (atomically: parallel workers may both write it) and
 * reused. Every test still runs `migrate` through buildApp, which finds nothing left to apply; the embedded
 * start itself (test/start.test.ts) still begins from an empty folder.
 */
export function migratedPgliteSnapshot(): Promise<Blob> {
  memo ??= (async () => {
    const file = join(tmpdir(), `p2p-pglite-migrated-${snapshotKey()}.tar`);
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
  return memo;
}
