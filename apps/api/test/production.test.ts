import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bip84 from '../src/chains/vectors/bip84.json' with { type: 'json' };
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * What production refuses (DECISIONS §13): demo data, a DATABASE_URL without JWT_SECRET, and the
 * public API map unless DOCS_PUBLIC=1. The start refusals run the real server entry point.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SECRET = 'p'.repeat(40);
const XPUBS = {
  XPUB_BTC: bip84.accountZpub,
  XPUB_ETH: bip84.accountZpub,
  XPUB_XRP: bip84.accountZpub,
  XPUB_TRX: bip84.accountZpub,
};

/** Runs `apps/api/src/server.ts` with `env` (on top of a cleaned process env) until it exits. */
function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(base)) {
    if (
      /^(NODE_ENV|DATABASE_URL|REDIS_URL|SEED_DEMO|JWT_SECRET|SIGNER_|OPERATOR_|XPUB_|SMS_|TWILIO_|DOCS_)/.test(
        k,
      )
    ) {
      delete base[k];
    }
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((r) => child.once('exit', (code) => r({ code, stderr })));
}

describe('production start refusals', () => {
  it('refuses SEED_DEMO=1 with a clear message', async () => {
    const r = await runServer({
      NODE_ENV: 'production',
      SEED_DEMO: '1',
      JWT_SECRET: SECRET,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never',
      ...XPUBS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/SEED_DEMO=1 is refused in production/);
  });

  it('refuses a DATABASE_URL without JWT_SECRET', async () => {
    const r = await runServer({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never',
      ...XPUBS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/JWT_SECRET is required in production/);
  });

  it('refuses a start without every XPUB_<COIN>, naming the missing ones', async () => {
    const r = await runServer({
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never',
      XPUB_BTC: XPUBS.XPUB_BTC,
      XPUB_ETH: XPUBS.XPUB_ETH,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/XPUB_XRP, XPUB_TRX required in production/);
  });

  it('refuses a start without SIGNER_TOKEN (DECISIONS §18)', async () => {
    const r = await runServer({
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never',
      ...XPUBS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/SIGNER_TOKEN is required in production/);
  });
});

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  SIGNER_TOKEN: SECRET,
  SMS_PROVIDER: 'console',
  ...XPUBS,
};

describe('/docs in production', () => {
  let hidden: TestApp;
  let shown: TestApp;
  beforeAll(async () => {
    hidden = await createTestApp(PRODUCTION);
    shown = await createTestApp({ ...PRODUCTION, DOCS_PUBLIC: '1' });
  });
  afterAll(async () => {
    await hidden?.close();
    await shown?.close();
  });

  it('is off without DOCS_PUBLIC: /docs and /docs/json answer the 404 envelope', async () => {
    for (const url of ['/docs', '/docs/json', '/docs/static/index.html']) {
      const res = await hidden.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ returnCode: 404, returnMessage: 'NOT_FOUND', returnData: null });
    }
    // The rest of the API is there.
    expect((await hidden.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('is served with DOCS_PUBLIC=1', async () => {
    const json = await shown.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toMatch(/^3\./);
    const ui = await shown.app.inject({ method: 'GET', url: '/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});
