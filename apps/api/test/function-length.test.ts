import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths, isTestFile, longFunctions, MAX_FUNCTION_LINES } from './function-length.ts';

/*
 * No function grows past 70 lines (DESIGN habit 7). The functions that were longer when the check came are
 * listed in long-functions.json with their length then: each may shrink, never grow, and a new one may not
 * join. Lengths are counted by the TypeScript parser (first to last line of the function), tests excluded.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const ALLOWLIST = resolve(import.meta.dirname, 'long-functions.json');
const allowed: Record<string, number> = JSON.parse(readFileSync(ALLOWLIST, 'utf8'));

describe('function length', () => {
  const found = longFunctions(ROOT, ['apps', 'packages']);
  const byKey = new Map(found.map((f) => [f.key, f]));

  it(`no function outside the allowlist is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const fresh = found
      .filter((f) => allowed[f.key] === undefined)
      .map((f) => `${f.key} (line ${f.startLine}): ${f.lines} lines; split it into smaller functions`);
    expect(fresh).toEqual([]);
  });

  it('no listed function grew', () => {
    const grown = found
      .filter((f) => allowed[f.key] !== undefined && f.lines > (allowed[f.key] ?? 0))
      .map((f) => `${f.key}: ${f.lines} lines, allowed ${allowed[f.key]}; it may only shrink`);
    expect(grown).toEqual([]);
  });

  it('the allowlist is tight: a function that shrank or went is lowered or removed there', () => {
    const loose = Object.entries(allowed).flatMap(([key, max]) => {
      const f = byKey.get(key);
      if (!f)
        return [
          `${key}: now ${MAX_FUNCTION_LINES} lines or fewer (or renamed); remove it from long-functions.json`,
        ];
      return f.lines < max
        ? [`${key}: now ${f.lines} lines; lower its number in long-functions.json to ${f.lines}`]
        : [];
    });
    expect(loose).toEqual([]);
  });
});

describe('how functions are measured', () => {
  const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

  it('counts declarations, arrows bound to a name and methods, from first to last line', () => {
    const text = [
      `export function big() {\n${body(71)}\n}`,
      `const arrow = () => {\n${body(70)}\n};`,
      `class Box {\n  method() {\n${body(72)}\n  }\n}`,
      `app.post('/x', async () => {\n${body(75)}\n});`,
    ].join('\n');
    const lengths = functionLengths('apps/api/src/x.ts', text).map((f) => [f.key, f.lines]);
    expect(lengths).toEqual([
      ['apps/api/src/x.ts > big', 71],
      ['apps/api/src/x.ts > arrow', 70],
      ['apps/api/src/x.ts > Box > method', 72],
      ['apps/api/src/x.ts > app.post callback', 75],
    ]);
  });

  it('names nested and repeated functions apart and reads TSX', () => {
    const text = `export function Page() {\n  const a = () => <b onClick={() => 1} />;\n  const a2 = [1].map(() => 2);\n  const a3 = [1].map(() => 3);\n  return a;\n}`;
    const keys = functionLengths('apps/web/src/P.tsx', text).map((f) => f.key);
    expect(keys).toEqual([
      'apps/web/src/P.tsx > Page',
      'apps/web/src/P.tsx > Page > a',
      'apps/web/src/P.tsx > Page > a > onClick handler',
      'apps/web/src/P.tsx > Page > [1].map callback',
      'apps/web/src/P.tsx > Page > [1].map callback #2',
    ]);
  });

  it('leaves test code out', () => {
    expect(isTestFile('apps/api/src/modules/orders/trade.test.ts')).toBe(true);
    expect(isTestFile('apps/web/e2e/support/server.ts')).toBe(true);
    expect(isTestFile('apps/api/test/helpers.ts')).toBe(true);
    expect(isTestFile('apps/api/src/modules/orders/test-kit.ts')).toBe(true);
    expect(isTestFile('apps/api/src/modules/orders/service.ts')).toBe(false);
  });
});
