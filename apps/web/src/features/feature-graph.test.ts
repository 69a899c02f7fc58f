import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles between features (DESIGN "Layout": a feature never reaches back into one that uses it).
 * Biome's noImportCycles (biome.json) catches cycles between files; this catches the cycles between
 * folders that pass through different files (trade -> wallet in one page, wallet -> trade in another).
 */
const FEATURES = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

function featureOf(path: string): string | null {
  const rel = relative(FEATURES, path);
  return rel === '' || rel.startsWith('..') ? null : (rel.split(sep)[0] ?? null);
}

/** feature -> the other features it imports from (static and dynamic relative imports). */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(FEATURES)) {
    const from = featureOf(file);
    if (!from) continue;
    const deps = graph.get(from) ?? new Set<string>();
    graph.set(from, deps);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const to = featureOf(resolve(dirname(file), m[1] ?? ''));
      if (to && to !== from) deps.add(to);
    }
  }
  return graph;
}

function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.push([...path.slice(at), next].join(' -> '));
      else visit(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  return found;
}

describe('features import each other one way only', () => {
  it('finds the features and their imports', () => {
    const graph = featureGraph();
    expect([...graph.keys()]).toContain('trade');
    expect([...(graph.get('mypage') ?? [])]).toContain('wallet');
  });

  it('has no cycle between features', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });
});
