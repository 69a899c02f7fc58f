import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope, Transfer, Wallet } from '@p2p/contract';
import type { AccountsResponse } from '@p2p/signer-protocol';
import { type Address, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from '../src/modules/seed/index.ts';
import { TRUST_OFF } from './helpers.ts';
import { freePort } from './infra.ts';
import { type Anvil, startAnvil } from './nodes.ts';

/**
 * `npm start` (scripts/start.mjs: the signer beside the API, DECISIONS §9, §18) on a fresh DATA_DIR with only
 * CHAIN_RPC_ETH (and the automatic limit) set pays withdrawals on chain through the development signer it
 * started: a demo member's deposit on Anvil is credited by the watcher and swept to the signer's hot address,
 * the member's withdrawal approves itself, is signed by that signer and paid, and shows COMPLETED with its txid;
 * the recipient got exactly the amount, from the hot address the signer published in DATA_DIR/signer. One above
 * WITHDRAW_AUTO_MAX_ETH waits PENDING until the operator (OPERATOR_LOGIN_ID) approves it, then is paid.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-start-payouts-'));
const member = DEMO_MEMBERS[0] as (typeof DEMO_MEMBERS)[number];
const OPERATOR = { loginId: 'opsadmin', password: 'opsPass1234!' };

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
    OPERATOR_LOGIN_ID: OPERATOR.loginId,
    OPERATOR_PASSWORD: OPERATOR.password,
  };
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'SEED_DEMO', 'SIGNER_URL', 'SIGNER_TOKEN']) {
    delete env[k];
  }
  for (const k of ['SIGNER_SEED_FILE', 'CHAIN_NETWORK']) delete env[k];
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

let token = '';
let walletId = 0;

async function login(who: { loginId: string; password: string }): Promise<string> {
  const r = await call<{ accessToken: string }>('POST', '/api/v1/auth/login', undefined, who);
  expect(r.status).toBe(200);
  return r.body.returnData.accessToken;
}

const transfers = async () =>
  (await call<{ list: Transfer[] }>('GET', `/transfer?walletId=${walletId}&size=50`, token)).body.returnData
    .list;

async function withdraw(to: Address, amount: string): Promise<number> {
  const r = await call<Transfer>('POST', '/transfer/request', token, {
    fromWalletId: walletId,
    destType: 'EXTERNAL',
    destExternalAddress: to,
    amount,
    stepUp: { password: member.password },
  });
  expect(r.status).toBe(200);
  return r.body.returnData.transferId;
}

/** Waits for withdrawal `id` COMPLETED; checks the chain paid `to` exactly `amount` from the signer's hot address. */
async function expectPaid(id: number, to: Address, had: bigint, amount: string): Promise<void> {
  const done = await until('the withdrawal COMPLETED', 180_000, async () =>
    (await transfers()).find((x) => x.transferId === id && x.status === 'COMPLETED'),
  );
  expect(done.txid).toMatch(/^0x[0-9a-f]{64}$/);
  expect(await anvil.client.getBalance({ address: to })).toBe(had + parseEther(amount));
  const accounts = JSON.parse(
    readFileSync(join(dataDir, 'signer', 'accounts.json'), 'utf8'),
  ) as AccountsResponse;
  const hot = accounts.accounts.find((a) => a.coin === 'ETH')?.hotAddress;
  const tx = await anvil.client.getTransaction({ hash: done.txid as Hex });
  expect([tx.from.toLowerCase(), tx.to?.toLowerCase()]).toEqual([hot?.toLowerCase(), to.toLowerCase()]);
}

describe('npm start with CHAIN_RPC_ETH pays withdrawals through the signer it started', () => {
  it('a deposit on Anvil is credited, a withdrawal to another Anvil account completes with its txid', async () => {
    token = await login(member);
    let wallet = (await call<Wallet[]>('GET', '/api/v1/wallets', token)).body.returnData.find(
      (w) => w.coinCode === 'ETH',
    );
    if (!wallet) {
      wallet = (await call<Wallet>('POST', '/api/v1/wallets/create', token, { coinCode: 'ETH' })).body
        .returnData;
    }
    walletId = wallet.id;
    const deposit = await anvil.pay(wallet.address as Address, parseEther('3'));
    await until('the deposit credited', 120_000, async () =>
      (await transfers()).find((x) => x.txid === deposit && x.status === 'COMPLETED'),
    );
    const to = anvil.accounts[3] as Address;
    const had = await anvil.client.getBalance({ address: to });
    await expectPaid(await withdraw(to, '0.25'), to, had, '0.25');
  }, 420_000);

  it('one above WITHDRAW_AUTO_MAX_ETH waits PENDING until the operator approves it, then is paid', async () => {
    const to = anvil.accounts[4] as Address;
    const had = await anvil.client.getBalance({ address: to });
    const id = await withdraw(to, '1.5');
    // a few payout passes (CHAIN_POLL_MS 200) go by: it is still waiting, nothing sent
    await new Promise((r) => setTimeout(r, 2000));
    expect((await transfers()).find((x) => x.transferId === id)?.status).toBe('PENDING');
    expect(await anvil.client.getBalance({ address: to })).toBe(had);
    const op = await login(OPERATOR);
    const ok = await call<{ status: string }>('POST', `/ops/api/v1/withdrawals/${id}/approve`, op);
    expect([ok.status, ok.body.returnData.status]).toEqual([200, 'APPROVED']);
    await expectPaid(id, to, had, '1.5');
  }, 420_000);
});
