import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Each API module has a front door (docs/architecture.md "The API", DESIGN "A module's front door"): code
 * outside `modules/<name>/` (another module, app.ts, the CLI, the seed, the tests under apps/api/test) imports
 * only `modules/<name>/index.ts`. Two more entries are named and narrow: a module's `test-kit.ts`, for test
 * files (and other test kits) only, and its `tables.ts`, for `db/schema.ts` only (the database's types are
 * assembled from each module's tables). Inside a module, files and tests import each other freely.
 */

const SRC = dirname(dirname(fileURLToPath(import.meta.url)));
const MODULES = join(SRC, 'modules');
const API_TESTS = join(SRC, '..', 'test');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file names: imports, `export ... from`, dynamic `import()` (the compiler's own scan). */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The module folder a path lies in, or null outside `modules/<name>/`. */
function moduleOf(path: string): string | null {
  const rel = relative(MODULES, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

const isTestFile = (file: string) =>
  file.endsWith('.test.ts') || file.endsWith(`${sep}test-kit.ts`) || file.startsWith(API_TESTS + sep);

/** Why `file` may not import `target`, or null when it may. */
export function refusal(file: string, target: string): string | null {
  const to = moduleOf(target);
  if (!to || moduleOf(file) === to) return null;
  const entry = relative(join(MODULES, to), target).split(sep).join('/');
  if (entry === 'index.ts') return null;
  if (entry === 'test-kit.ts' && isTestFile(file)) return null;
  if (entry === 'tables.ts' && file === join(SRC, 'db', 'schema.ts')) return null;
  return `modules/${to}/${entry} (import modules/${to}/index.ts)`;
}

/** `file -> target` for every relative import across a module boundary that skips the front door. */
function deepImports(): string[] {
  return [...tsFiles(SRC), ...tsFiles(API_TESTS)].flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .flatMap((spec) => {
        const why = refusal(file, resolve(dirname(file), spec));
        return why ? [`${relative(SRC, file).split(sep).join('/')} -> ${why}`] : [];
      }),
  );
}

describe('modules are entered through their index.ts', () => {
  it('reads static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from '../orders/service.ts';",
      "import type { B } from '../wallets/tables.ts';",
      "export { c } from './c.ts';",
      "const m = await import('../listings/repo.ts');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '../orders/service.ts',
      '../wallets/tables.ts',
      './c.ts',
      '../listings/repo.ts',
      'zod',
    ]);
  });

  it('refuses a deep import and allows the named entries', () => {
    const chat = join(MODULES, 'chat', 'service.ts');
    expect(refusal(chat, join(MODULES, 'orders', 'queries.ts'))).toMatch(/orders\/queries\.ts/);
    expect(refusal(chat, join(MODULES, 'orders', 'index.ts'))).toBeNull();
    expect(refusal(chat, join(MODULES, 'chat', 'repo.ts'))).toBeNull();
    expect(refusal(chat, join(MODULES, 'orders', 'test-kit.ts'))).not.toBeNull();
    expect(refusal(join(MODULES, 'chat', 'chat.test.ts'), join(MODULES, 'orders', 'test-kit.ts'))).toBeNull();
    expect(refusal(join(SRC, 'app.ts'), join(MODULES, 'orders', 'routes.ts'))).not.toBeNull();
    expect(refusal(join(SRC, 'db', 'schema.ts'), join(MODULES, 'orders', 'tables.ts'))).toBeNull();
    expect(refusal(join(SRC, 'app.ts'), join(MODULES, 'orders', 'tables.ts'))).not.toBeNull();
  });

  it('every module has an index.ts', () => {
    const modules = readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(modules.length).toBeGreaterThan(10);
    const without = modules.filter((m) => !readdirSync(join(MODULES, m.name)).includes('index.ts'));
    expect(without.map((m) => m.name)).toEqual([]);
  });

  it('no file outside a module imports past its index.ts', () => {
    expect(deepImports()).toEqual([]);
  });
});
