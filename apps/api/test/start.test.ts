import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '@p2p/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './infra.ts';

/**
 * `npm start` as the README gives it: `node scripts/start.mjs` on the embedded
 * database answers /healthz on its port, seeds the demo data on a new database, stops cleanly on SIGTERM, and
 * after a restart on the same DATA_DIR the data is still there. The start-up time is printed, not asserted: tests
 * check behaviour, and on a loaded 2-core machine the first start (migrations, demo seed, argon2) swings from
 * 5 to 50 s, and the signer starts first (DECISIONS §18). The 300 s guard in start() only turns a hang into a
 * failure.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(
  port: number,
  signerPort: number,
): Promise<{ child: ChildProcess; startedInMs: number }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    SIGNER_PORT: String(signerPort),
    DATA_DIR: dataDir,
    PRICE_PROVIDER: 'static',
  };
  for (const k of [
    'NODE_ENV',
    'DATABASE_URL',
    'REDIS_URL',
    'SEED_DEMO',
    'OPERATOR_LOGIN_ID',
    'OPERATOR_PASSWORD',
    'SIGNER_URL',
    'SIGNER_TOKEN',
    'SIGNER_SEED_FILE',
    'CHAIN_NETWORK',
  ]) {
    delete env[k];
  }
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: 'ignore' });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return { child, startedInMs: performance.now() - t0 };
    if (performance.now() - t0 > 300_000) throw new Error('no /healthz within 300 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  return exited;
}

async function json<T>(url: string, init?: RequestInit): Promise<Envelope<T>> {
  return (await fetch(url, init).then((r) => r.json())) as Envelope<T>;
}

async function snapshot(base: string) {
  const login = await json<{ accessToken: string }>(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId: 'demoseller', password: 'seller1234!' }),
  });
  expect(login.returnCode).toBe(0);
  const auth = { authorization: `Bearer ${login.returnData.accessToken}` };
  const wallets = await json<{ coinCode: string; address: string; balance: string }[]>(
    `${base}/api/v1/wallets`,
    {
      headers: auth,
    },
  );
  const listings = await json<{ list: { listingId: number }[] }>(`${base}/api/v1/sell-listings?size=50`);
  return {
    wallets: wallets.returnData.map((w) => `${w.coinCode}:${w.address}:${w.balance}`).sort(),
    listingIds: listings.returnData.list.map((l) => l.listingId).sort(),
  };
}

describe('npm start on the embedded database', () => {
  it('answers /healthz, keeps its data across a restart and stops cleanly', async () => {
    const port = await freePort();
    const signerPort = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const signerHealth = `http://127.0.0.1:${signerPort}/healthz`;
    const first = await start(port, signerPort);
    // DECISIONS §18: the signer runs beside the API, and the deposit addresses are its (accounts.json).
    expect(await fetch(signerHealth).then((r) => r.ok)).toBe(true);
    const accounts = JSON.parse(readFileSync(join(dataDir, 'signer', 'accounts.json'), 'utf8'));
    expect(accounts.accounts).toHaveLength(4);
    console.info(`npm start: /healthz after ${Math.round(first.startedInMs)} ms (new database)`);
    const before = await snapshot(base);
    expect(before.wallets).toHaveLength(4);
    // The API took its keys from the signer: the XRP deposit address is the signer's platform account.
    const xrp = accounts.accounts.find((a: { coin: string }) => a.coin === 'XRP');
    expect(before.wallets.some((w) => w.startsWith(`XRP:${xrp.xrpAccount}:`))).toBe(true);
    expect(before.listingIds.length).toBeGreaterThanOrEqual(4);
    expect(await stop(first.child)).toBe(0);
    // Both stopped: the signer's port no longer answers.
    expect(
      await fetch(signerHealth).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');

    const second = await start(port, signerPort);
    console.info(`npm start: /healthz after ${Math.round(second.startedInMs)} ms (restart)`);
    expect(await snapshot(base)).toEqual(before);
    expect(await stop(second.child)).toBe(0);
    expect(
      await fetch(signerHealth).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
  }, 900_000);
});
