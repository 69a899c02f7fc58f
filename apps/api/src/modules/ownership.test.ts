import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * "SQL lives in the owner's repo.ts" (docs/architecture.md "Module map"): a module's SQL sits in
 * its `repo.ts` / `repo-<topic>.ts` (writes, locks, its own reads) or its `queries.ts` / `<x>-queries.ts`
 * (read models). Routes, services and the other files call those functions; this test fails when one of them
 * writes SQL itself, raw or through Kysely's builder.
 */

const MODULES_DIR = dirname(fileURLToPath(import.meta.url));

/** Files allowed to hold SQL by their role. */
const SQL_FILE = /(^|\/)(repo(-[a-z-]+)?|queries|[a-z-]+-queries)\.ts$/;

/** Non-repo files that still hold SQL, each with the reason. Keep this list short. */
const EXCEPTIONS: Record<string, string> = {
  'health/routes.ts': '`select 1` readiness probe: reads no table, owned by no module',
  'metrics/routes.ts':
    'Prometheus gauges (orders by status, escrow totals, timer lag) collected on scrape; read only, a ' +
    'module of its own with no table, and a function per owner would only move the same three counts',
  'orders/invariants.ts':
    'escrow invariants over listings, orders and the ledger in one snapshot (docs/engineering-log.md "Cross-owner ' +
    'reads"); splitting them by owner would lose the single snapshot',
};

const RAW_SQL = [/\bsql\s*(<[^`]*>)?`/, /\bsql\.raw\(/, /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Lines of a file that build SQL, comments aside. */
function sqlLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .filter((line) => RAW_SQL.some((re) => re.test(line)));
}

describe('module ownership: SQL only in repo and queries files', () => {
  const files = sourceFiles(MODULES_DIR).map((f) => relative(MODULES_DIR, f).split('\\').join('/'));

  it('finds the module files', () => {
    expect(files).toContain('identity/session.ts');
    expect(files).toContain('identity/repo.ts');
  });

  it('keeps SQL out of routes, services and the other non-repo files', () => {
    const offenders = files
      .filter((f) => !SQL_FILE.test(f) && !(f in EXCEPTIONS))
      .map((f) => ({ file: f, lines: sqlLines(readFileSync(join(MODULES_DIR, f), 'utf8')) }))
      .filter((o) => o.lines.length > 0);
    expect(offenders).toEqual([]);
  });

  it('lists only exceptions that still hold SQL', () => {
    const stale = Object.keys(EXCEPTIONS).filter(
      (f) => !files.includes(f) || sqlLines(readFileSync(join(MODULES_DIR, f), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
