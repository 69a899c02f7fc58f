import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The production build `npm start` serves (e2e runs never write here, see ensureWebBuild). */
export const DIST_DIR = join(WEB_DIR, 'dist');
const SNAPSHOTS_DIR = join(WEB_DIR, 'test-output/e2e-dist');
const ROOT = resolve(WEB_DIR, '../..');
const SOURCES = [
  join(WEB_DIR, 'src'),
  join(WEB_DIR, 'public'),
  join(WEB_DIR, 'index.html'),
  join(WEB_DIR, 'vite.config.ts'),
  join(ROOT, 'packages/contract/src'),
  // the reserves page verifies proofs and control signatures with packages/reserves in the browser
  join(ROOT, 'packages/reserves/src'),
];

function collect(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (!st.isDirectory()) {
    out.push(`${path}:${st.size}:${st.mtimeMs}`);
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (!/\.test\.tsx?$/.test(entry)) collect(join(path, entry), out);
  }
}

/** A fingerprint of every web and contract source file (path, size, mtime); test files excluded. */
export function sourceFingerprint(): string {
  const files: string[] = [];
  for (const s of SOURCES) collect(s, files);
  return createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
}

/** Removes snapshots other than `keep` that are older than 30 minutes (older test runs are done). */
function pruneSnapshots(keep: string): void {
  for (const entry of existsSync(SNAPSHOTS_DIR) ? readdirSync(SNAPSHOTS_DIR) : []) {
    const dir = join(SNAPSHOTS_DIR, entry);
    if (entry !== keep && Date.now() - statSync(dir).mtimeMs > 30 * 60_000) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Returns a built web app for the current sources. Each build goes to its own immutable folder
 * test-output/e2e-dist/<fingerprint> (built in a temporary folder, then renamed), so concurrent test runs
 * of other engineers never replace the files a running server is serving, and apps/web/dist is untouched.
 */
export function ensureWebBuild(): string {
  const fingerprint = sourceFingerprint();
  const target = join(SNAPSHOTS_DIR, fingerprint);
  if (existsSync(join(target, 'index.html'))) return target;
  mkdirSync(SNAPSHOTS_DIR, { recursive: true });
  const tmp = join(SNAPSHOTS_DIR, `.tmp-${fingerprint}-${process.pid}-${Date.now()}`);
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  try {
    execFileSync(process.execPath, [vite, 'build', '--outDir', tmp, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WEB_DIR,
      stdio: 'inherit',
      // vitest sets NODE_ENV=test, which would give a React development build.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (!existsSync(join(target, 'index.html'))) renameSync(tmp, target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  pruneSnapshots(fingerprint);
  return target;
}
