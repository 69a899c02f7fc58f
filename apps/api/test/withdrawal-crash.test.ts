import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Envelope, fromUnits, type OpsWithdrawal, toUnits } from '@p2p/contract';
import { type Address, type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { ledgerToChainUnits } from '../src/chains/units.ts';
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/db/client.ts';
import { qty } from '../src/db/numeric.ts';
import { checkLedger } from '../src/ledger/index.ts';
import { scanToTip } from '../src/modules/deposits/test-kit.ts';
import { opsWithdrawals, signerJournal, startApiChild, stopApiChild } from './api-child.ts';
import { createMember, createWalletFor, type FixtureMember } from './fixtures.ts';
import { type TestApp, TRUST_OFF } from './helpers.ts';
import { type FreshDatabase, freshDatabase } from './infra.ts';
import { type Anvil, startAnvil } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/**
 * DECISIONS §18 "after a crash the stored transaction is re-sent, never re-signed; the chain pays each withdrawal
 * at most once", on a real Ethereum node (Anvil) with the real signer process (apps/signer on the public TEST
 * seed) and the API as a child process (`server.ts`, as `npm start` runs it). Members' deposits are credited by
 * the watcher and swept to the hot address; then a burst of withdrawals (each below WITHDRAW_AUTO_MAX_ETH, so no
 * operator) is paid by the child, which is SIGKILLed in the middle (checked on the chain: some paid, not all)
 * and started again on the same database; the second time the SIGNER is SIGKILLed instead and started again on
 * its DATA_DIR, port and token. Each time every withdrawal ends COMPLETED, each recipient got exactly its
 * amount, the hot address sent exactly one transaction per withdrawal (so nothing twice), the signer's journal
 * holds one signature per withdrawal and the ledger check is clean. PostgreSQL with DATABASE_URL, else the
 * embedded database in a temporary DATA_DIR.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'p2p-withdrawal-crash-'));
const MEMBERS = 4;
const BURST = 24;
const JWT_SECRET = 'withdrawal-crash-test-secret-of-32-chars-or-more';

interface Member extends FixtureMember {
  walletId: number;
}

let anvil: Anvil;
let signer: TestSigner;
let fresh: FreshDatabase | null = null;
let startHeight = 0;
let hot: Address;
let opToken = '';
const members: Member[] = [];
/** What each recipient must have received, wei. */
const expected = new Map<Address, bigint>();
let child: ChildProcess | null = null;

function baseEnv(): Record<string, string> {
  const e: Record<string, string> = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    WEB_DIST_DIR: join(dataDir, 'no-web'),
    ...TRUST_OFF,
    // SIGNER_URL, SIGNER_TOKEN, XPUB_<COIN> of the signer's seed, CHAIN_NETWORK
    ...signer.apiEnv,
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: '1',
    CHAIN_START_HEIGHT_ETH: String(startHeight),
    CHAIN_POLL_MS: '50',
    // a killed holder's lease runs out quickly, so the restarted instance takes over within the test
    CHAIN_LEASE_MS: '1500',
    WITHDRAW_AUTO_MAX_ETH: '1',
    WITHDRAW_RETRY_SEC: '1',
  };
  if (fresh) e.DATABASE_URL = fresh.url;
  return e;
}

/** Runs `fn` on an in-process app on the test's store (no worker running by itself), then closes it. */
async function withApp<T>(fn: (app: App) => Promise<T>): Promise<T> {
  const app = await buildApp(loadConfig(baseEnv()), {
    serveWeb: false,
    startWatchers: false,
    startPayouts: false,
  });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

async function openStore() {
  const config = loadConfig(baseEnv());
  return openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

async function hotNonce(): Promise<number> {
  return anvil.client.getTransactionCount({ address: hot, blockTag: 'pending' });
}

/** Deposits of 2 ETH to each member, credited by the watcher, swept to the hot address. */
async function fundMembers(app: App): Promise<void> {
  const t = { app } as unknown as TestApp;
  opToken = (await createMember(t, { role: 'OPERATOR' })).token;
  for (let i = 0; i < MEMBERS; i++) {
    const m = await createMember(t);
    const w = await createWalletFor(t, m.id, 'ETH');
    members.push({ ...m, walletId: w.id });
    await anvil.pay(w.address as Address, parseEther('2'));
  }
  const watcher = app.depositWatchers.watchers.get('ETH');
  const worker = app.payouts.workers.get('ETH');
  if (!watcher || !worker) throw new Error('no ETH watcher or payout worker');
  await scanToTip(watcher);
  const swept = parseEther('2') * BigInt(MEMBERS) - parseEther('0.01');
  // passes until the sweeps are in (a sweep the signer or the node was slow for is tried again later)
  const deadline = Date.now() + 180_000;
  while ((await anvil.client.getBalance({ address: hot })) < swept && Date.now() < deadline) {
    expect((await worker.pass()).error).toBeUndefined();
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(await anvil.client.getBalance({ address: hot })).toBeGreaterThanOrEqual(swept);
}

/** `n` withdrawals to fresh addresses, left PENDING (no worker runs here); answers their ids. */
async function requestBurst(n: number): Promise<number[]> {
  return withApp(async (app) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const m = members[i % MEMBERS] as Member;
      const to = freshAddress();
      // distinct amounts of at most 6 decimals (LIMITS.qtyDecimals): 0.01, 0.010011, 0.010022...
      const units = 1_000_000n + BigInt(expected.size) * 1_100n;
      const res = await app.inject({
        method: 'POST',
        url: '/transfer/request',
        headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          fromWalletId: m.walletId,
          destType: 'EXTERNAL',
          destExternalAddress: to,
          amount: fromUnits(units),
          stepUp: { password: m.password },
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push((res.json() as Envelope<{ transferId: number }>).returnData.transferId);
      expected.set(to, ledgerToChainUnits('ETH', units));
    }
    return ids;
  });
}

beforeAll(async () => {
  anvil = await startAnvil();
  signer = await startSigner();
  hot = signer.accounts.accounts.find((a) => a.coin === 'ETH')?.hotAddress as Address;
  if (process.env.DATABASE_URL) fresh = await freshDatabase(process.env.DATABASE_URL);
  startHeight = (await anvil.height()) + 1;
  await withApp(fundMembers);
}, 300_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await signer?.stop();
  await anvil?.stop();
  await fresh?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// a test that failed half-way leaves no API running on the store for the next one
afterEach(async () => {
  if (child) await stopServer(child, 'SIGKILL');
});

async function startServer(
  extra: Record<string, string> = {},
): Promise<{ proc: ChildProcess; base: string }> {
  return startApiChild({ ...baseEnv(), ...extra }, (proc) => {
    child = proc;
  });
}

async function stopServer(proc: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  await stopApiChild(proc, signal);
  child = null;
}

/** Waits until the hot address has sent `count` transactions (the kill lands in the middle of the burst). */
async function untilHotSent(count: number, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await hotNonce()) < count) {
    if (proc.exitCode !== null) throw new Error('the API exited');
    if (Date.now() > deadline) throw new Error(`the hot address did not reach nonce ${count}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every withdrawal of `status` in the operators' list (all its pages; cursor paging, oldest first). */
function opsList(base: string, status: string): Promise<OpsWithdrawal[]> {
  return opsWithdrawals(base, opToken, status);
}

/** Waits until every one of `ids` is COMPLETED (as the operators' list shows it). */
async function untilCompleted(base: string, ids: number[]): Promise<void> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const done = new Set((await opsList(base, 'COMPLETED')).map((w) => w.withdrawalId));
    if (ids.every((id) => done.has(id))) return;
    if (Date.now() > deadline) throw new Error(`${ids.filter((id) => !done.has(id)).length} not COMPLETED`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How the attempts of `ids` stand, for the log (where the crash landed). */
async function attemptTally(ids: number[]): Promise<Record<string, number>> {
  const dbh = await openStore();
  try {
    const rows = await dbh.db
      .selectFrom('withdrawal_attempts')
      .select('status')
      .where('transfer_id', 'in', ids)
      .execute();
    const tally: Record<string, number> = {};
    for (const r of rows) tally[r.status] = (tally[r.status] ?? 0) + 1;
    tally.NOT_PREPARED = ids.length - rows.length;
    return tally;
  } finally {
    await dbh.close();
  }
}

/** The signer's journal: the WITHDRAWAL signatures by requestId (apps/signer/src/journal.ts lines). */
function journalWithdrawals(): Map<string, string[]> {
  return signerJournal(signer.dataDir);
}

/** What the chain holds of the withdrawals `ids` against what the database shows COMPLETED. */
async function expectPaidOnce(ids: number[], nonceBefore: number): Promise<void> {
  // one transaction from the hot address per withdrawal: nothing sent twice, nothing lost
  expect(await hotNonce()).toBe(nonceBefore + ids.length);
  const journal = journalWithdrawals();
  const dbh = await openStore();
  try {
    const rows = await dbh.db
      .selectFrom('transfers')
      .select(['id', 'status', 'amount', 'txid', 'address'])
      .where('id', 'in', ids)
      .execute();
    const attempts = await dbh.db
      .selectFrom('withdrawal_attempts')
      .select(['transfer_id', 'status', 'txid', 'request_id'])
      .where('transfer_id', 'in', ids)
      .execute();
    expect(rows).toHaveLength(ids.length);
    expect(attempts).toHaveLength(ids.length);
    let shownCompleted = 0n;
    let chainPaid = 0n;
    for (const r of rows) {
      expect(r.status).toBe('COMPLETED');
      const a = attempts.find((x) => x.transfer_id === r.id);
      expect([a?.status, a?.txid, a?.request_id]).toEqual(['CONFIRMED', r.txid, `withdrawal:${r.id}`]);
      // the signer signed it once, and that is the transaction the chain has
      expect(journal.get(`withdrawal:${r.id}`)).toEqual([r.txid]);
      const tx = await anvil.client.getTransaction({ hash: r.txid as Hex });
      expect([tx.from.toLowerCase(), tx.to?.toLowerCase()]).toEqual([
        hot.toLowerCase(),
        r.address.toLowerCase(),
      ]);
      const wei = ledgerToChainUnits('ETH', toUnits(qty(r.amount)));
      expect(await anvil.client.getBalance({ address: r.address as Address })).toBe(wei);
      expect(expected.get(r.address as Address)).toBe(wei);
      shownCompleted += wei;
      chainPaid += await anvil.client.getBalance({ address: r.address as Address });
    }
    expect(chainPaid).toBe(shownCompleted);
    expect((await checkLedger(dbh.db)).problems).toEqual([]);
  } finally {
    await dbh.close();
  }
}

/**
 * A pass-through HTTP proxy in front of the signer (the MAC covers method, path and body, so it forwards as is).
 * `onSigned`, when set, sees each answered WITHDRAWAL sign call and may drop the answer (the socket is
 * destroyed): a signature made and journaled whose answer never reached the API.
 */
interface SignerProxy {
  url: string;
  onSigned: ((answer: { requestId: string; txid: string }) => Promise<'drop' | 'pass'>) | null;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function startSignerProxy(): Promise<SignerProxy> {
  const proxy: SignerProxy = { url: '', onSigned: null, close: async () => undefined };
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
    }
    const answer = await fetch(`${signer.url}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : body,
    }).catch(() => null);
    if (!answer) return res.destroy();
    const text = await answer.text();
    const sign = req.url?.startsWith('/v1/sign') && !req.url.startsWith('/v1/sign-message');
    if (
      sign &&
      answer.ok &&
      proxy.onSigned &&
      (JSON.parse(body) as { purpose?: string }).purpose === 'WITHDRAWAL'
    ) {
      if ((await proxy.onSigned(JSON.parse(text) as { requestId: string; txid: string })) === 'drop') {
        return res.destroy();
      }
    }
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(text);
  };
  const server = createServer((req, res) => void forward(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((r) => server.close(() => r()));
  return proxy;
}

describe('a crash in the middle of paying withdrawals (ETH on Anvil, the real signer)', () => {
  it('pays every withdrawal exactly once after the API is SIGKILLed mid-burst and restarted', async () => {
    const ids = await requestBurst(BURST);
    const nonceBefore = await hotNonce();
    const first = await startServer();
    await untilHotSent(nonceBefore + Math.ceil(BURST / 4), first.proc);
    await stopServer(first.proc, 'SIGKILL');
    const sentAtKill = (await hotNonce()) - nonceBefore;
    console.info(`withdrawal crash (API): ${sentAtKill} of ${BURST} sent`, await attemptTally(ids));
    expect(sentAtKill).toBeGreaterThan(0);
    expect(sentAtKill).toBeLessThan(BURST);

    const second = await startServer();
    await untilCompleted(second.base, ids);
    await stopServer(second.proc, 'SIGTERM');
    await expectPaidOnce(ids, nonceBefore);
  }, 600_000);

  it('pays every withdrawal exactly once after the SIGNER is SIGKILLed mid-burst and restarted', async () => {
    const ids = await requestBurst(BURST);
    const nonceBefore = await hotNonce();
    const api = await startServer();
    await untilHotSent(nonceBefore + Math.ceil(BURST / 4), api.proc);
    const { dataDir: signerDir, port, token } = signer;
    await signer.kill();
    const sentAtKill = (await hotNonce()) - nonceBefore;
    expect(sentAtKill).toBeLessThan(BURST);
    // the API keeps running; operators see why the rest waits, and nothing is half-sent
    const deadline = Date.now() + 60_000;
    let waiting: OpsWithdrawal | undefined;
    while (!waiting && Date.now() < deadline) {
      waiting = (await opsList(api.base, 'APPROVED')).find((w) =>
        w.lastError?.includes('SIGNER_UNAVAILABLE'),
      );
      if (!waiting) await new Promise((r) => setTimeout(r, 100));
    }
    expect(waiting?.txid ?? null).toBeNull();
    expect(waiting && ids.includes(waiting.withdrawalId)).toBe(true);
    console.info(
      `withdrawal crash (signer): ${(await hotNonce()) - nonceBefore} of ${BURST} sent while it was down`,
    );
    expect((await hotNonce()) - nonceBefore).toBeLessThan(BURST);

    signer = await startSigner({ dataDir: signerDir, port, token });
    await untilCompleted(api.base, ids);
    await stopServer(api.proc, 'SIGTERM');
    await expectPaidOnce(ids, nonceBefore);
  }, 600_000);
  it("re-asks the signer after the API died between the signer's answer and storing it: the same transaction, once", async () => {
    const proxy = await startSignerProxy();
    try {
      const ids = await requestBurst(6);
      const nonceBefore = await hotNonce();
      let lost: { requestId: string; txid: string } | null = null;
      const killed = new Promise<void>((resolveKilled) => {
        proxy.onSigned = async (answer) => {
          lost = answer;
          proxy.onSigned = null;
          if (child) await stopServer(child, 'SIGKILL');
          resolveKilled();
          return 'drop';
        };
      });
      // the kill may land before the first start answered /healthz: that start's failure is expected
      const first = startServer({ SIGNER_URL: proxy.url }).catch(() => null);
      await killed;
      await first;
      const answer = lost as { requestId: string; txid: string } | null;
      if (!answer) throw new Error('no signature was intercepted');
      // signed and journaled, never stored nor sent
      expect(journalWithdrawals().get(answer.requestId)).toEqual([answer.txid]);
      expect(await hotNonce()).toBe(nonceBefore);
      expect((await attemptTally(ids)).PREPARED).toBe(1);

      const again = await startServer({ SIGNER_URL: proxy.url });
      await untilCompleted(again.base, ids);
      await stopServer(again.proc, 'SIGTERM');
      await expectPaidOnce(ids, nonceBefore);
      const id = Number(answer.requestId.split(':')[1]);
      const dbh = await openStore();
      try {
        const row = await dbh.db
          .selectFrom('transfers')
          .select('txid')
          .where('id', '=', id)
          .executeTakeFirst();
        expect(row?.txid).toBe(answer.txid);
      } finally {
        await dbh.close();
      }
    } finally {
      await proxy.close();
    }
  }, 600_000);
});
