import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestMac, SIGNER_PATHS, type SignRequest, signRequest } from '@p2p/signer-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSigner, type TestSigner } from '../../api/test/signer.ts';

/*
 * The signer's refusals (DECISIONS §18, SIGNER-PROTOCOL "Transport" and "Calls"), on the real process over
 * HTTP: authentication, clock window, replays, limits (the day's across a restart, from the journal), one answer
 * per requestId, and production without a seed file.
 */

const ETH_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ethIntent = (valueWei: string, nonce = 0) => ({
  fromPath: '1/0',
  to: ETH_TO,
  valueWei,
  nonce,
  gas: '21000',
  maxFeePerGas: '1000000000',
  maxPriorityFeePerGas: '1000000000',
  chainId: 31337,
});
const ETH = 10n ** 18n;
/** 21000 gas at 1 gwei: the most the fee of these intents can be (counted with the amount). */
const FEE = 21_000n * 10n ** 9n;

async function raw(s: TestSigner, path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code?: string; data?: Record<string, unknown> },
  };
}

let signer: TestSigner;
const env = { SIGNER_MAX_TX_ETH: '1', SIGNER_MAX_DAY_ETH: '1.5' };
beforeAll(async () => {
  signer = await startSigner({ env });
});
afterAll(async () => {
  await signer?.stop();
});

describe('signer authentication (HMAC-SHA256, 60 s, no replays)', () => {
  const body = JSON.stringify({ coin: 'ETH', path: '0/0', message: 'hello' });
  const parts = { method: 'POST', path: SIGNER_PATHS.signMessage, rawBody: body };

  it('answers a well-signed call', async () => {
    const r = await raw(signer, parts.path, body, signRequest(signer.token, parts, Date.now()));
    expect(r.status).toBe(200);
  });

  it('refuses a bad signature, another token, a changed body or path, and missing headers: 401 SIGNER_AUTH', async () => {
    const now = Date.now();
    const good = signRequest(signer.token, parts, now);
    const cases = [
      signRequest('another-token-'.repeat(4), parts, now),
      { ...good, 'x-signer-signature': 'ab'.repeat(32) },
      signRequest(signer.token, { ...parts, rawBody: `${body} ` }, now),
      signRequest(signer.token, { ...parts, path: SIGNER_PATHS.sign }, now),
      {},
    ];
    for (const headers of cases) {
      const r = await raw(signer, parts.path, body, headers);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('SIGNER_AUTH');
    }
  });

  it('refuses a timestamp more than 60 s away: 401 SIGNER_STALE', async () => {
    for (const skew of [-61_000, 61_000]) {
      const r = await raw(signer, parts.path, body, signRequest(signer.token, parts, Date.now() + skew));
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('SIGNER_STALE');
    }
  });

  it('refuses the same signed call a second time: 401 SIGNER_REPLAY', async () => {
    const headers = signRequest(signer.token, parts, Date.now());
    expect((await raw(signer, parts.path, body, headers)).status).toBe(200);
    const again = await raw(signer, parts.path, body, headers);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('SIGNER_REPLAY');
  });

  it('signs over timestamp, method, path and raw body exactly as the protocol says', () => {
    const mac = requestMac('t', '1', { method: 'post', path: '/p', rawBody: 'b' });
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(requestMac('t', '1', { method: 'POST', path: '/p', rawBody: 'b' })).toBe(mac);
    expect(requestMac('t', '2', { method: 'POST', path: '/p', rawBody: 'b' })).not.toBe(mac);
  });
});

describe('one answer per requestId', () => {
  it('answers a repeat with the same signed transaction, and a reuse with another intent with 409', async () => {
    const req: SignRequest = {
      requestId: 'withdrawal:1',
      coin: 'ETH',
      purpose: 'WITHDRAWAL',
      intent: ethIntent('100000000000000000'),
    };
    const first = await signer.client.sign(req);
    expect(first.amount).toBe('0.1');
    expect(first.fee).toBe('0.000021');
    // The same intent with its keys in another order is the same intent.
    const reordered = { ...req, intent: Object.fromEntries(Object.entries(req.intent).reverse()) };
    expect(await signer.client.sign(reordered as SignRequest)).toEqual(first);
    const reuse = { ...req, intent: ethIntent('200000000000000000') };
    await expect(signer.client.sign(reuse)).rejects.toMatchObject({ code: 'SIGNER_REQUEST_REUSED' });
  });
});

describe('limits, read from the transaction signed', () => {
  it('refuses above SIGNER_MAX_TX_<COIN> (amount plus fee): 422 SIGNER_LIMIT_TX {limit}', async () => {
    const req: SignRequest = {
      requestId: 'withdrawal:2',
      coin: 'ETH',
      purpose: 'WITHDRAWAL',
      intent: ethIntent((ETH - FEE + 1n).toString(), 1),
    };
    await expect(signer.client.sign(req)).rejects.toMatchObject({
      code: 'SIGNER_LIMIT_TX',
      data: { limit: '1' },
    });
    // Exactly at the limit passes.
    const at = await signer.client.sign({
      ...req,
      requestId: 'withdrawal:3',
      intent: ethIntent((ETH - FEE).toString(), 1),
    });
    expect(at.amount).toBe('0.999979');
  });

  it('refuses past SIGNER_MAX_DAY_<COIN> over 24 h, still after a restart (the journal)', async () => {
    // Used so far: 0.1 + 0.000021 and 1: 1.100021 of 1.5.
    const over: SignRequest = {
      requestId: 'withdrawal:4',
      coin: 'ETH',
      purpose: 'WITHDRAWAL',
      intent: ethIntent('400000000000000000', 2),
    };
    await expect(signer.client.sign(over)).rejects.toMatchObject({
      code: 'SIGNER_LIMIT_DAY',
      data: { limit: '1.5', used: '1.100021' },
    });
    await signer.stop();
    signer = await startSigner({ dataDir: signer.dataDir, env });
    await expect(signer.client.sign(over)).rejects.toMatchObject({ code: 'SIGNER_LIMIT_DAY' });
    // The answer to an earlier request survives the restart too.
    const repeat = await signer.client.sign({
      requestId: 'withdrawal:1',
      coin: 'ETH',
      purpose: 'WITHDRAWAL',
      intent: ethIntent('100000000000000000'),
    });
    expect(repeat.amount).toBe('0.1');
    // A sweep to the signer's own hot address is not a withdrawal: no limit, amount paid out 0.
    const sweep = await signer.client.sign({
      requestId: 'sweep:ETH:1',
      coin: 'ETH',
      purpose: 'SWEEP',
      intent: {
        ...ethIntent('5000000000000000000'),
        fromPath: '0/3',
        to: signer.accounts.accounts[1]!.hotAddress!,
      },
    });
    expect(sweep.amount).toBe('0');
    // ...but a "sweep" that pays someone else is refused.
    await expect(
      signer.client.sign({ requestId: 'sweep:ETH:2', coin: 'ETH', purpose: 'SWEEP', intent: ethIntent('1') }),
    ).rejects.toMatchObject({ code: 'SIGNER_REFUSED', data: { reason: 'SIGNER_INTENT_INVALID' } });
  });
});

describe('start-up', () => {
  it('refuses to start in production without SIGNER_SEED_FILE, saying so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'p2p-signer-prod-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/signer/src/server.ts'], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        SIGNER_TOKEN: 'x'.repeat(40),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toMatch(/SIGNER_SEED_FILE is required in production/);
  });
});
