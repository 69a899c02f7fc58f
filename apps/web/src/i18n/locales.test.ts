import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'locales');
const LANGS = ['en', 'kr', 'jp'] as const;

/** Every leaf key path of a locale JSON ("a.b.c"), with empty strings flagged. */
function leafKeys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

function namespacesOf(lang: string): string[] {
  return readdirSync(join(LOCALES_DIR, lang))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

function load(lang: string, ns: string): unknown {
  return JSON.parse(readFileSync(join(LOCALES_DIR, lang, `${ns}.json`), 'utf8'));
}

describe('locale files (SPEC §1: every visible string in en, kr and jp)', () => {
  it('have the same namespaces in every language', () => {
    expect(namespacesOf('kr')).toEqual(namespacesOf('en'));
    expect(namespacesOf('jp')).toEqual(namespacesOf('en'));
  });

  for (const ns of namespacesOf('en')) {
    it(`namespace "${ns}" has the same keys in en, kr and jp`, () => {
      const [en, ...others] = LANGS.map((lang) => leafKeys(load(lang, ns)).sort());
      for (const keys of others) expect(keys).toEqual(en);
    });

    it(`namespace "${ns}" has no empty texts`, () => {
      for (const lang of LANGS) {
        const walk = (o: unknown, path: string): void => {
          if (typeof o === 'string') expect(o.trim(), `${lang}/${ns}:${path}`).not.toBe('');
          else if (o && typeof o === 'object')
            for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`);
        };
        walk(load(lang, ns), '');
      }
    });
  }

  it('detects a difference (the comparison can fail)', () => {
    expect(leafKeys({ a: { b: 'x' } })).not.toEqual(leafKeys({ a: { c: 'x' } }));
  });
});
