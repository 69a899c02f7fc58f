import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freePort, freshDatabase } from './infra.ts';

/**
 * Graceful shutdown of the real server process (DECISIONS §14): after SIGTERM /readyz answers 503
 * while the listener is still open (SHUTDOWN_GRACE_SEC, cut short by a second signal), then the process
 * stops taking connections, a request already in flight still gets its answer, and the process exits 0.
 * Runs on PostgreSQL when DATABASE_URL is set, else on an embedded database in a temporary DATA_DIR.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-drain-'));
let fresh: FreshDatabase | null = null;
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await fresh?.drop();
});

/** Waits until `pred` holds for the text seen so far, or the process ended. */
function waitFor(out: { text: string; exited: boolean }, pred: (text: string) => boolean, what: string) {
  return new Promise<void>((res, rej) => {
    const deadline = Date.now() + 60_000;
    const tick = () => {
      if (pred(out.text)) return res();
      if (out.exited) return rej(new Error(`server exited before: ${what}\n${out.text}`));
      if (Date.now() > deadline) return rej(new Error(`never saw: ${what}\n${out.text}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

describe('graceful shutdown', () => {
  it('drains: readyz 503 at once, no new connections, the request in flight answered, exit 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PRICE_PROVIDER: 'static',
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      LOG_LEVEL: 'info',
      // Long enough that the test never races it: the second SIGTERM below ends it.
      SHUTDOWN_GRACE_SEC: '300',
    };
    for (const k of ['DATABASE_URL', 'REDIS_URL', 'OPERATOR_LOGIN_ID', 'OPERATOR_PASSWORD']) delete env[k];
    if (process.env.DATABASE_URL) {
      fresh = await freshDatabase(process.env.DATABASE_URL);
      env.DATABASE_URL = fresh.url;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { text: '', exited: false };
    child.stdout.on('data', (d: Buffer) => {
      out.text += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out.text += d.toString();
    });
    const exited = new Promise<number | null>((r) =>
      child.once('exit', (code) => {
        out.exited = true;
        r(code);
      }),
    );
    try {
      await waitFor(out, (s) => s.includes('Server listening'), 'listening');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      // A request in flight: headers and half the body sent, the rest only after the listener closed.
      const body = JSON.stringify({ loginId: 'drainprobe1' });
      const half = Math.floor(body.length / 2);
      let inFlight: ReturnType<typeof request> | undefined;
      const answer = new Promise<{ status: number; json: { returnData: { available: boolean } } }>(
        (res, rej) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/api/v1/members/check-id',
              agent: false,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                'x-request-id': 'drain-probe',
              },
            },
            (r) => {
              let text = '';
              r.on('data', (c: Buffer) => {
                text += c.toString();
              });
              r.on('end', () => res({ status: r.statusCode ?? 0, json: JSON.parse(text) }));
            },
          );
          req.on('error', rej);
          req.write(body.slice(0, half));
          inFlight = req;
        },
      );
      await waitFor(out, (s) => /"reqId":"drain-probe"[^\n]*incoming request/.test(s), 'the probe arrived');

      child.kill('SIGTERM');
      await waitFor(out, (s) => s.includes('shutting down: draining'), 'draining');
      const notReady = await fetch(`${base}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({
        returnCode: 503,
        returnMessage: 'SERVICE_UNAVAILABLE',
        returnData: { reason: 'DRAINING' },
      });

      child.kill('SIGTERM');
      await waitFor(out, (s) => s.includes('waiting for requests in flight'), 'closing');
      // New connections are refused from now on; the process is still up for the request in flight.
      let refused = false;
      for (let i = 0; i < 400 && !refused; i++) {
        refused = await fetch(`${base}/readyz`).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((r) => setTimeout(r, 25));
      }
      expect(refused).toBe(true);
      expect(out.exited).toBe(false);

      inFlight?.end(body.slice(half));
      const got = await answer;
      expect(got.status).toBe(200);
      expect(got.json.returnData).toEqual({ available: true });
      expect(await exited).toBe(0);
    } finally {
      if (!out.exited) child.kill('SIGKILL');
    }
  });
});
