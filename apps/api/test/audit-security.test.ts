import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * `npm run audit:security` is part of the suite, so the attack list cannot rot: it starts a real
 * server (on a fresh database of DATABASE_URL's server when set, adding the dropped-connection attack) and
 * must report every attack defended.
 */
describe('npm run audit:security', () => {
  it('runs every attack against a real server and each one is defended', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/audit-security.ts'], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(out).not.toContain('HARMED');
    const summary = /(\d+) of (\d+) attacks defended/.exec(out);
    expect(summary, out).not.toBeNull();
    expect(Number(summary?.[2])).toBeGreaterThanOrEqual(13);
    expect(summary?.[1]).toBe(summary?.[2]);
    expect(code, out).toBe(0);
  }, 180_000);
});
