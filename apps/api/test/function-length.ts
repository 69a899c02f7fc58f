import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The longest a function may be, in lines from its first to its last (DESIGN habit 7). */
export const MAX_FUNCTION_LINES = 70;

/** Folders never read: installed and built code. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage']);

/** Test code is outside the rule: test files, the browser tests, the API's test folder, test kits. */
export function isTestFile(path: string): boolean {
  return (
    /\.test\.tsx?$/.test(path) ||
    /(^|\/)(e2e|test)\//.test(path) ||
    /(^|\/)test-?kit\.tsx?$/.test(path) ||
    path.endsWith('.d.ts')
  );
}

/** The TS/TSX source files below `dirs` (relative to `root`, with forward slashes), tests excluded, sorted. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(rel);
      } else if (/\.tsx?$/.test(e.name) && !isTestFile(rel)) out.push(rel);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

/** A function of a file: `key` names it stably (file and enclosing names, not line numbers). */
export interface FunctionLength {
  key: string;
  lines: number;
  startLine: number;
}

type FunctionNode = ts.FunctionLikeDeclaration;

function isFunctionNode(n: ts.Node): n is FunctionNode {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n)
  );
}

function nameText(name: ts.Node | undefined, sf: ts.SourceFile): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(sf);
}

/**
 * What a function is called: its own name, else the name it is bound to (variable, property, default
 * export), else where it is passed (`app.post(...)`: "app.post callback"), else "anonymous".
 */
function functionName(fn: FunctionNode, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  const own = nameText(fn.name, sf);
  if (own) return own;
  const p = fn.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))
    return nameText(p.name, sf) ?? 'anonymous';
  if (ts.isExportAssignment(p)) return 'default';
  if (ts.isCallExpression(p)) return `${p.expression.getText(sf).replace(/\s+/g, '')} callback`;
  if (ts.isJsxExpression(p) && ts.isJsxAttribute(p.parent)) return `${nameText(p.parent.name, sf)} handler`;
  return 'anonymous';
}

/**
 * Every function of one file with its length in lines (from the line of its first token to the line of its
 * last, so a one-line arrow is 1). Keys are `path > outer > inner`; a repeated key gets ` #2`, ` #3`.
 */
export function functionLengths(path: string, text: string): FunctionLength[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const out: FunctionLength[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, scope: string) => {
    let inner = scope;
    if (isFunctionNode(node) && node.body) {
      const base = `${scope} > ${functionName(node, sf)}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      inner = n === 1 ? base : `${base} #${n}`;
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ key: inner, lines: end - start + 1, startLine: start + 1 });
    } else if (ts.isClassDeclaration(node) && node.name) {
      inner = `${scope} > ${node.name.text}`;
    }
    ts.forEachChild(node, (c) => visit(c, inner));
  };
  visit(sf, path);
  return out;
}

/** Every function longer than `max` lines in the source files below `dirs`. */
export function longFunctions(
  root: string,
  dirs: readonly string[],
  max = MAX_FUNCTION_LINES,
): FunctionLength[] {
  return sourceFiles(root, dirs).flatMap((f) =>
    functionLengths(relative(root, join(root, f)), readFileSync(join(root, f), 'utf8')).filter(
      (x) => x.lines > max,
    ),
  );
}
