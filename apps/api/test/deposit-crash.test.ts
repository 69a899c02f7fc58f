import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainStatus, Envelope } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/db/client.ts';
import { account, balanceOf, checkLedger } from '../src/ledger/index.ts';
import { openSession } from '../src/modules/identity/index.ts';
import { type FakeRippled, randomXrpAddress, startFakeRippled, xrpPayment } from './fake-rippled.ts';
import { createMember, createWalletFor } from './fixtures.ts';
import type { TestApp } from './helpers.ts';
import { type FreshDatabase, freePort, freshDatabase } from './infra.ts';

/**
 * DECISIONS §17 "every credit at most once across crashes": the API as a child process (`server.ts`, the
 * XRP reader over HTTP to a fake rippled in this process) is killed with SIGKILL while it credits a burst of
 * deposits, then started again: every deposit ends credited exactly once and the ledger check is clean. The
 * kill is checked to have landed mid-burst (some credited, not all). PostgreSQL with DATABASE_URL, else the
 * embedded database in a temporary DATA_DIR.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-deposit-crash-'));
const PLATFORM = randomXrpAddress();
const LEDGERS = 30;
const PER_LEDGER = 25;
const MEMBERS = 5;
const JWT_SECRET = 'deposit-crash-test-secret-of-32-chars-or-more';

let rippled: FakeRippled;
let fresh: FreshDatabase | null = null;
let env: NodeJS.ProcessEnv;
let opToken: string;
const memberIds: number[] = [];
const expected = new Map<number, bigint>();
let lastIndex = 0;
let firstIndex = 0;
let child: ChildProcess | null = null;

function baseEnv(): Record<string, string> {
  const e: Record<string, string> = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    XRP_DEPOSIT_ACCOUNT: PLATFORM,
    WEB_DIST_DIR: join(dataDir, 'no-web'),
  };
  if (fresh) e.DATABASE_URL = fresh.url;
  return e;
}

async function openStore() {
  const config = loadConfig(baseEnv());
  return openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}

beforeAll(async () => {
  rippled = await startFakeRippled();
  if (process.env.DATABASE_URL) fresh = await freshDatabase(process.env.DATABASE_URL);
  // Members, their XRP wallets (destination tags) and an operator, written by an app on the same store.
  const setup = await buildApp(loadConfig(baseEnv()), { serveWeb: false, startWatchers: false });
  const t = { app: setup } as unknown as TestApp;
  const op = await createMember(t, { role: 'OPERATOR' });
  for (let i = 0; i < MEMBERS; i++) {
    const m = await createMember(t);
    await createWalletFor(t, m.id, 'XRP');
    memberIds.push(m.id);
  }
  const tags = await setup.deps.db
    .selectFrom('wallets')
    .select(['member_id', 'destination_tag'])
    .where('coin', '=', 'XRP')
    .execute();
  opToken = (await openSession(setup.deps, { id: op.id, role: 'OPERATOR' })).accessToken;
  await setup.close();

  firstIndex = rippled.addLedger().ledger_index + 1;
  for (let l = 0; l < LEDGERS; l++) {
    const txs = [];
    for (let p = 0; p < PER_LEDGER; p++) {
      const row = tags[(l * PER_LEDGER + p) % tags.length];
      if (!row || row.destination_tag === null) throw new Error('no tag');
      const drops = 1_000_000 + l * PER_LEDGER + p;
      txs.push(
        xrpPayment({ to: PLATFORM, amount: String(drops), destinationTag: Number(row.destination_tag) }),
      );
      expected.set(row.member_id, (expected.get(row.member_id) ?? 0n) + BigInt(drops) * 100n);
    }
    lastIndex = rippled.addLedger(txs).ledger_index;
  }
  env = {
    ...process.env,
    ...baseEnv(),
    HOST: '127.0.0.1',
    CHAIN_RPC_XRP: rippled.url,
    CHAIN_START_HEIGHT_XRP: String(firstIndex),
    CHAIN_POLL_MS: '50',
    // a killed holder's lease runs out quickly, so the restarted instance takes over within the test
    CHAIN_LEASE_MS: '1500',
  };
  for (const k of ['REDIS_URL', 'OPERATOR_LOGIN_ID', 'OPERATOR_PASSWORD']) delete env[k];
  if (!fresh) delete env.DATABASE_URL;
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await rippled?.close();
  await fresh?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ proc: ChildProcess; base: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${stderr}`);
    const up = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return { proc, base };
    if (Date.now() > deadline) throw new Error(`no /healthz within 90 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scannedHeight(base: string): Promise<number | null> {
  const r = await fetch(`${base}/ops/api/v1/chain/status`, {
    headers: { authorization: `Bearer ${opToken}` },
  })
    .then((x) => x.json() as Promise<Envelope<ChainStatus[]>>)
    .catch(() => null);
  return r?.returnData?.find((s) => s.coinCode === 'XRP')?.scannedHeight ?? null;
}

function exited(proc: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r();
    else proc.once('exit', () => r());
  });
}

async function creditedCount(): Promise<number> {
  const dbh = await openStore();
  try {
    const r = await dbh.db
      .selectFrom('transfers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'DEPOSIT')
      .where('status', '=', 'COMPLETED')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  } finally {
    await dbh.close();
  }
}

describe('a crash in the middle of crediting deposits', () => {
  it('credits each deposit exactly once after a SIGKILL and a restart', async () => {
    const total = LEDGERS * PER_LEDGER;
    const first = await startServer();
    child = first.proc;
    // kill as soon as the watcher is into the burst
    for (;;) {
      const h = await scannedHeight(first.base);
      if (h !== null && h >= firstIndex + 1) break;
      if (first.proc.exitCode !== null) throw new Error('server exited');
      await new Promise((r) => setTimeout(r, 5));
    }
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    const before = await creditedCount();
    console.info(`deposit crash: ${before} of ${total} credited when the process was killed`);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(total);

    const second = await startServer();
    child = second.proc;
    const deadline = Date.now() + 120_000;
    while ((await scannedHeight(second.base)) !== lastIndex) {
      if (Date.now() > deadline) throw new Error('the restarted watcher did not reach the tip');
      await new Promise((r) => setTimeout(r, 100));
    }
    second.proc.kill('SIGTERM');
    await exited(second.proc);
    child = null;

    const dbh = await openStore();
    try {
      const rows = await dbh.db
        .selectFrom('transfers')
        .select(['txid', 'chain_index', 'status', 'member_id'])
        .where('type', '=', 'DEPOSIT')
        .execute();
      expect(rows).toHaveLength(total);
      expect(rows.every((r) => r.status === 'COMPLETED')).toBe(true);
      expect(new Set(rows.map((r) => `${r.txid}:${r.chain_index}`)).size).toBe(total);
      const entries = await dbh.db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'deposit')
        .executeTakeFirstOrThrow();
      expect(Number(entries.n)).toBe(total);
      for (const id of memberIds) {
        expect(await balanceOf(dbh.db, account.available(id, 'XRP'))).toBe(expected.get(id) ?? 0n);
      }
      expect(await balanceOf(dbh.db, account.chain('XRP'))).toBe(
        -[...expected.values()].reduce((a, b) => a + b, 0n),
      );
      expect((await checkLedger(dbh.db)).problems).toEqual([]);
    } finally {
      await dbh.close();
    }
    // Two API processes start and migrate in this test; on a loaded 2-core box that alone took over a minute.
  }, 180_000);
});
