import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The layers under the transport (docs/architecture.md, docs/engineering-log.md "Ledger seams"): the ledger and the
 * database helpers never import `http/`, so a chain watcher, a CLI or a job can post and refuse without the
 * web server; `errors/` imports nothing of the API, so every layer may use it; the ledger itself sees only the
 * database, the errors and its own files. And every money movement is built by `ledger/movements.ts`: no
 * source file hands `post()` hand-made postings.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative specifiers a file imports: static imports, `export ... from` and dynamic `import()`. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

/** The top folder under src/ of what `spec` in `file` resolves to ('' for a file directly in src/, '..' outside). */
function layerOf(file: string, spec: string): string {
  const rel = relative(SRC, resolve(dirname(file), spec));
  if (rel.startsWith('..')) return '..';
  const parts = rel.split(sep);
  return parts.length === 1 ? '' : (parts[0] ?? '');
}

/** `layer/file.ts -> target` for every import of a file under `layer` whose target layer is not allowed. */
function violations(layer: string, allowed: (target: string) => boolean): string[] {
  return tsFiles(join(SRC, layer)).flatMap((file) =>
    relativeImports(readFileSync(file, 'utf8'))
      .filter((spec) => !allowed(layerOf(file, spec)))
      .map((spec) => `${relative(SRC, file).split(sep).join('/')} -> ${spec}`),
  );
}

describe('API layers', () => {
  it('reads static, re-exported and dynamic imports', () => {
    const text = [
      "import { AppError } from '../http/errors.ts';",
      "import type { Tx } from '../db/client.ts';",
      "export { x } from './x.ts';",
      "const m = await import('../http/auth.ts');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImports(text)).toEqual([
      '../http/errors.ts',
      '../db/client.ts',
      './x.ts',
      '../http/auth.ts',
    ]);
    expect(layerOf(join(SRC, 'ledger', 'ledger.ts'), '../http/errors.ts')).toBe('http');
    expect(layerOf(join(SRC, 'ledger', 'ledger.ts'), './accounts.ts')).toBe('ledger');
  });

  it('ledger/ and db/ import nothing from http/ (tests included)', () => {
    expect(violations('ledger', (to) => to !== 'http')).toEqual([]);
    expect(violations('db', (to) => to !== 'http')).toEqual([]);
  });

  it('ledger/ imports only the database, the errors and itself (its tests may use the test kit)', () => {
    const allowed = new Set(['ledger', 'db', 'errors', '..']);
    expect(violations('ledger', (to) => allowed.has(to))).toEqual([]);
  });

  it('errors/ imports nothing of the API but itself', () => {
    expect(violations('errors', (to) => to === 'errors')).toEqual([]);
  });

  it('every post() outside the ledger posts a built movement: post(tx, movements.x(...))', () => {
    const handMade = tsFiles(SRC)
      .filter((f) => !f.endsWith('.test.ts') && !f.startsWith(join(SRC, 'ledger') + sep))
      .flatMap((file) =>
        [
          ...readFileSync(file, 'utf8').matchAll(
            /(?<![.\w])post\(\s*\w+\s*,(?!\s*movements\.)\s*([^\n]{0,40})/g,
          ),
        ].map((m) => `${relative(SRC, file)}: post(tx, ${m[1]}`),
      );
    expect(handMade).toEqual([]);
  });
});
