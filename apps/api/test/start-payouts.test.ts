import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope, Transfer, Wallet } from '@p2p/contract';
import type { AccountsResponse } from '@p2p/signer-protocol';
import { type Address, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from '../src/modules/seed/demo-data.ts';
import { TRUST_OFF } from './helpers.ts';
import { freePort } from './infra.ts';
import { type Anvil, startAnvil } from './nodes.ts';

/**
 * `npm start` (scripts/start.mjs: the signer beside the API, DECISIONS §9, §18) on a fresh DATA_DIR with only
 * CHAIN_RPC_ETH (and the automatic limit) set pays withdrawals on chain through the development signer it
 * started: a demo member's deposit on Anvil is credited by the watcher and swept to the signer's hot address,
 * the member's withdrawal approves itself, is signed by that signer and paid, and shows COMPLETED with its txid;
 * the recipient got exactly the amount, from the hot address the signer published in DATA_DIR/signer.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-start-payouts-'));
const member = DEMO_MEMBERS[0] as (typeof DEMO_MEMBERS)[number];

let anvil: Anvil;
let child: ChildProcess | null = null;
let base = '';

async function call<T>(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

/** Polls `read` every 250 ms until it answers something, at most `ms`. */
async function until<T>(what: string, ms: number, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (child?.exitCode !== null) throw new Error('npm start exited');
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  anvil = await startAnvil();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...TRUST_OFF,
    PORT: String(port),
    SIGNER_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    PRICE_PROVIDER: 'static',
    LOG_LEVEL: 'warn',
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: '1',
    CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
    CHAIN_POLL_MS: '200',
    WITHDRAW_AUTO_MAX_ETH: '1',
  };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'SEED_DEMO', 'SIGNER_URL', 'SIGNER_TOKEN']) {
    delete env[k];
  }
  for (const k of ['SIGNER_SEED_FILE', 'CHAIN_NETWORK', 'OPERATOR_LOGIN_ID', 'OPERATOR_PASSWORD'])
    delete env[k];
  child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: 'ignore' });
  base = `http://127.0.0.1:${port}`;
  await until('/healthz', 300_000, () =>
    fetch(`${base}/healthz`)
      .then((r) => (r.ok ? true : undefined))
      .catch(() => undefined),
  );
}, 420_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const gone = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
  await anvil?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start with CHAIN_RPC_ETH pays withdrawals through the signer it started', () => {
  it('a deposit on Anvil is credited, a withdrawal to another Anvil account completes with its txid', async () => {
    const login = await call<{ accessToken: string }>('POST', '/api/v1/auth/login', undefined, {
      loginId: member.loginId,
      password: member.password,
    });
    expect(login.status).toBe(200);
    const token = login.body.returnData.accessToken;
    let wallet = (await call<Wallet[]>('GET', '/api/v1/wallets', token)).body.returnData.find(
      (w) => w.coinCode === 'ETH',
    );
    if (!wallet) {
      wallet = (await call<Wallet>('POST', '/api/v1/wallets/create', token, { coinCode: 'ETH' })).body
        .returnData;
    }
    const walletId = wallet.id;
    const transfers = async () =>
      (await call<{ list: Transfer[] }>('GET', `/transfer?walletId=${walletId}&size=50`, token)).body
        .returnData.list;
    const deposit = await anvil.pay(wallet.address as Address, parseEther('1'));
    await until('the deposit credited', 120_000, async () =>
      (await transfers()).find((x) => x.txid === deposit && x.status === 'COMPLETED'),
    );

    const to = anvil.accounts[3] as Address;
    const had = await anvil.client.getBalance({ address: to });
    const r = await call<Transfer>('POST', '/transfer/request', token, {
      fromWalletId: walletId,
      destType: 'EXTERNAL',
      destExternalAddress: to,
      amount: '0.25',
      stepUp: { password: member.password },
    });
    expect(r.status).toBe(200);
    const id = r.body.returnData.transferId;
    const done = await until('the withdrawal COMPLETED', 180_000, async () =>
      (await transfers()).find((x) => x.transferId === id && x.status === 'COMPLETED'),
    );
    expect(done.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await anvil.client.getBalance({ address: to })).toBe(had + parseEther('0.25'));
    const accounts = JSON.parse(
      readFileSync(join(dataDir, 'signer', 'accounts.json'), 'utf8'),
    ) as AccountsResponse;
    const hot = accounts.accounts.find((a) => a.coin === 'ETH')?.hotAddress;
    const tx = await anvil.client.getTransaction({ hash: done.txid as Hex });
    expect(tx.from.toLowerCase()).toBe(hot?.toLowerCase());
  }, 420_000);
});
