import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * DECISIONS §18 "Keys never live in the API process": everything the API's entry points import, followed through
 * relative imports and the workspace packages, with TypeScript's own parser, reaches no signer code, no mnemonic
 * library, no xrpl Wallet, no viem private-key account and no file that derives from a seed.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const WORKSPACES: Record<string, string> = {
  '@p2p/contract': join(ROOT, 'packages/contract/src/index.ts'),
  '@p2p/signer-protocol': join(ROOT, 'packages/signer-protocol/src/index.ts'),
};
const FORBIDDEN_MODULES = [/^bip39$/, /^@scure\/bip39/, /^@p2p\/signer$/, /^viem\/accounts$/, /^tronweb/];
const FORBIDDEN_NAMES: Record<string, string[]> = {
  xrpl: ['Wallet', 'deriveKeypair'],
  viem: ['privateKeyToAccount', 'mnemonicToAccount', 'hdKeyToAccount'],
  'ripple-keypairs': ['deriveKeypair', 'sign'],
};
const FORBIDDEN_TEXT =
  /\bfromMasterSeed\b|\bprivateKeyToAccount\b|\bmnemonicToSeed\w*\b|\bmnemonicToAccount\b|\bWallet\.from(Seed|Secret|Mnemonic|Entropy)\b/g;

/** The module specifiers and imported names of one file (ImportDeclaration / ExportDeclaration / import()). */
function importsOf(file: string, text: string): { spec: string; names: string[] }[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: { spec: string; names: string[] }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const spec = (node.moduleSpecifier as ts.StringLiteral).text;
      const names: string[] = [];
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
      } else names.push('*');
      out.push({ spec, names });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      out.push({ spec: arg && ts.isStringLiteral(arg) ? arg.text : '<dynamic>', names: ['*'] });
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

function resolveLocal(from: string, spec: string): string | null {
  if (WORKSPACES[spec]) return WORKSPACES[spec];
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  return null;
}

/** Every private-key path reachable from `entries`: "file: reason" lines (empty when there is none). */
export function privateKeyPaths(entries: string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = [...entries];
  const signerDir = join(ROOT, 'apps', 'signer') + sep;
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const rel = relative(ROOT, file);
    if (file.startsWith(signerDir)) problems.push(`${rel}: signer code`);
    const text = readFileSync(file, 'utf8');
    for (const word of new Set(Array.from(text.matchAll(FORBIDDEN_TEXT), (m) => m[0]))) {
      problems.push(`${rel}: ${word}`);
    }
    for (const { spec, names } of importsOf(file, text)) {
      if (FORBIDDEN_MODULES.some((re) => re.test(spec))) problems.push(`${rel}: imports ${spec}`);
      const banned = FORBIDDEN_NAMES[spec] ?? [];
      for (const name of names) {
        if (banned.includes(name)) problems.push(`${rel}: imports ${name} from ${spec}`);
      }
      const next = resolveLocal(file, spec);
      if (next) queue.push(next);
    }
  }
  return problems;
}

describe('the API holds no private key (DECISIONS §18)', () => {
  it('server.ts and app.ts reach no private-key code', () => {
    const entries = ['apps/api/src/server.ts', 'apps/api/src/app.ts'].map((f) => join(ROOT, f));
    expect(privateKeyPaths(entries)).toEqual([]);
  });

  it('finds them where they are: the signer trips every rule', () => {
    const found = privateKeyPaths([join(ROOT, 'apps/signer/src/server.ts')]).join('\n');
    expect(found).toMatch(/apps\/signer\/src\/keys\.ts: signer code/);
    expect(found).toMatch(/keys\.ts: fromMasterSeed/);
    expect(found).toMatch(/imports viem\/accounts/);
    expect(found).toMatch(/imports Wallet from xrpl/);
    expect(found).toMatch(/imports tronweb/);
  });
});
