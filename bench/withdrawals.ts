/**
 * Withdrawal payout benchmark (issue 24 "Done when", DECISIONS §18): the API as its own process on PostgreSQL,
 * its ETH payout worker asking the real signer (apps/signer, its own process, the TEST seed) and sending to a real
 * Anvil node that this bench starts; beside it a bare Fastify route (bench/bare-server.mjs) as the yardstick, as
 * bench/hot-paths.ts does, because on a shared machine only ratios mean something.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/withdrawals.ts
 *   BENCH_WITHDRAWALS (200: the burst), BENCH_MEMBERS (20: members the burst is spread over),
 *   BENCH_APPROVALS (20: timed operator approvals), BENCH_POLL_MS (500: CHAIN_POLL_MS), BENCH_DURATION (5 s of
 *   the bare route), BENCH_KEEP_DB=1 (keeps the database)
 *
 * 1. Burst: BENCH_WITHDRAWALS external withdrawals of 0.01 ETH (below WITHDRAW_AUTO_MAX_ETH=0.05: they approve
 *    themselves) are asked over HTTP (POST /transfer/request with the password step-up) while the bench holds the
 *    ETH payout lease, so the API's worker waits; then the bench lets go and samples the withdrawals' states every
 *    10 ms. Signed and broadcast per second = withdrawals / time from the first to the last one reaching BROADCAST
 *    (each is: autoApprove, a nonce under the lock, POST /v1/sign to the signer with HMAC, the signed tx and txid
 *    stored, eth_sendRawTransaction). Afterwards every txid is checked on Anvil (a receipt, status success, the
 *    recipient paid exactly) and the count of distinct nonces equals the count of withdrawals.
 * 2. Approval to broadcast: BENCH_APPROVALS withdrawals of 0.1 ETH (above the automatic limit: PENDING), one at a
 *    time: a random sleep of 0-1.2 poll periods (so the approval lands anywhere in the worker's cycle), POST
 *    /ops/api/v1/withdrawals/{id}/approve, and the time from its answer until Anvil knows the txid
 *    (eth_getTransactionByHash; automine, so it is also mined). p50 / p95 / max.
 * 3. Yardstick: autocannon against the bare POST route, 32 connections.
 *
 * Funds: the hot address (1/0 of the signer's ETH key) is paid on Anvil and the members are credited in the ledger
 * by a deposit posting (as a swept deposit leaves them), so ledger and chain agree. Not a test: prints figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { type Address, type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../apps/api/src/app.ts';
import { hotAddress } from '../apps/api/src/chains/index.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../apps/api/test/fixtures.ts';
import type { TestApp } from '../apps/api/test/helpers.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { startAnvil } from '../apps/api/test/nodes.ts';
import { startSigner } from '../apps/api/test/signer.ts';
import { freePort } from '../scripts/cluster.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const WITHDRAWALS = Number(process.env.BENCH_WITHDRAWALS ?? 200);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 20);
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 20);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 500);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const HOLDER = 'bench-holds-the-lease';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const out = (line = '') => process.stdout.write(`${line}\n`);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
};

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(150);
  }
  throw new Error(`${url}: not ready`);
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

/** POST /transfer/request for an external withdrawal; answers the transfer id. */
async function requestWithdrawal(
  apiUrl: string,
  m: FixtureMember,
  walletId: number,
  to: string,
  amount: string,
): Promise<number> {
  const res = await fetch(`${apiUrl}/transfer/request`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${m.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomBytes(16).toString('hex'),
    },
    body: JSON.stringify({
      fromWalletId: walletId,
      destType: 'EXTERNAL',
      destExternalAddress: to,
      amount,
      stepUp: { password: m.password },
    }),
  });
  const body = (await res.json()) as { returnData?: { transferId: number }; returnCode?: unknown };
  if (!res.ok || !body.returnData)
    throw new Error(`withdrawal request: ${res.status} ${JSON.stringify(body)}`);
  return body.returnData.transferId;
}

/** The bare route's POST rate with autocannon (32 connections). */
async function bareRate(): Promise<number> {
  const port = await freePort();
  const bare = spawn(process.execPath, ['bench/bare-server.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/bare`, bare);
    const r = await autocannon({
      url: `http://127.0.0.1:${port}/bare`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '0.01', to: '0x0' }),
      connections: 32,
      duration: DURATION,
    });
    return r.requests.average;
  } finally {
    await stopChild(bare);
  }
}

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'bench_withdrawals');
  const anvil = await startAnvil();
  const signer = await startSigner({
    env: { CHAIN_NETWORK: 'regtest', SIGNER_MAX_TX_ETH: '1', SIGNER_MAX_DAY_ETH: '100000' },
  });
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info', // as in production; the API's stdout goes to /dev/null
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...signer.apiEnv,
    DATABASE_URL: fresh.url,
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: '1',
    CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
    CHAIN_POLL_MS: String(POLL_MS),
    WITHDRAW_AUTO_MAX_ETH: '0.05',
    // DECISIONS §19 knobs off: the bench measures the payout, not the checks before it
    KYC_TRADE_LEVEL: '0',
    BANK_VERIFY_REQUIRED: '0',
    WITHDRAW_HOLD_SEC: '0',
    WITHDRAW_HOLD_NEW_SEC: '0',
    TRAVEL_RULE_MIN_KRW: String(Number.MAX_SAFE_INTEGER),
  };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', ORDER_TIMER_INTERVAL_MS: '0' });
  const dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
  // The bench's own app instance: migrations, fixtures' members and sessions; no watcher, no payout worker.
  const app = await buildApp(config, {
    dbh,
    serveWeb: false,
    skipStartupTasks: true,
    startWatchers: false,
    payoutSigner: null,
  });
  const t = { app, config } as unknown as TestApp;
  let api: ChildProcess | undefined;
  try {
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    out(`withdrawals bench ${new Date().toISOString()}  load average ${load}`);
    out(
      `burst ${WITHDRAWALS} x 0.01 ETH over ${MEMBERS} members, ${APPROVALS} timed approvals, CHAIN_POLL_MS=${POLL_MS}`,
    );

    // Funds: the hot address on chain, the members in the ledger.
    const hot = hotAddress('ETH') as Address;
    await anvil.pay(hot, parseEther(String(WITHDRAWALS * 0.01 + APPROVALS * 0.1 + 10)));
    const members: { m: FixtureMember; walletId: number }[] = [];
    const perMember = (WITHDRAWALS / MEMBERS) * 0.01 + APPROVALS * 0.1 + 1;
    for (let i = 0; i < MEMBERS; i++) {
      const m = await createMember(t);
      const w = await createWalletFor(t, m.id, 'ETH');
      await fundMember(t, m.id, 'ETH', perMember.toFixed(2));
      members.push({ m, walletId: w.id });
    }
    const op = await createMember(t, { role: 'OPERATOR' });
    // The bench holds the ETH payout lease: the API's worker waits until it is let go.
    await sql`insert into payout_workers (coin, holder, lease_until, last_run_at)
      values ('ETH', ${HOLDER}, now() + interval '1 hour', now())`.execute(app.deps.db);

    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    api = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(apiPort), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitReady(`${apiUrl}/readyz`, api);

    // 1. The burst.
    const recipients: Address[] = [];
    const ids: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < WITHDRAWALS; i += 8) {
      const part = await Promise.all(
        Array.from({ length: Math.min(8, WITHDRAWALS - i) }, (_, k) => {
          const to = privateKeyToAccount(generatePrivateKey()).address;
          recipients.push(to);
          const who = members[(i + k) % MEMBERS] as (typeof members)[number];
          return requestWithdrawal(apiUrl, who.m, who.walletId, to, '0.01');
        }),
      );
      ids.push(...part);
    }
    out(
      `asked ${ids.length} withdrawals over HTTP in ${((performance.now() - t0) / 1000).toFixed(1)} s (not timed)`,
    );
    await sql`update payout_workers set holder = null, lease_until = null where coin = 'ETH'`.execute(
      app.deps.db,
    );
    const released = performance.now();
    let first = 0;
    let last = 0;
    for (;;) {
      const r = await sql<{ n: number }>`select count(*)::int as n from transfers
        where id = any(${ids}::bigint[]) and status in ('BROADCAST', 'COMPLETED')`.execute(app.deps.db);
      const n = r.rows[0]?.n ?? 0;
      const now = performance.now();
      if (n > 0 && first === 0) first = now;
      if (n >= ids.length) {
        last = now;
        break;
      }
      if (now - released > 600_000) throw new Error(`only ${n} of ${ids.length} broadcast in 10 min`);
      await sleep(10);
    }
    const span = (last - first) / 1000;
    out(
      `burst: ${ids.length} signed and broadcast in ${span.toFixed(2)} s from the first to the last = ` +
        `${(ids.length / span).toFixed(1)} withdrawals/s (${((last - released) / 1000).toFixed(2)} s from the lease's release)`,
    );
    // Every one on chain, paid exactly, each with its own nonce.
    const sent = await sql<{
      id: number;
      txid: Hex;
      address: Address;
    }>`select id, txid, address from transfers
      where id = any(${ids}::bigint[])`.execute(app.deps.db);
    const nonces = new Set<number>();
    for (const row of sent.rows) {
      const receipt = await anvil.client.waitForTransactionReceipt({ hash: row.txid });
      if (receipt.status !== 'success') throw new Error(`${row.txid} reverted`);
      const tx = await anvil.client.getTransaction({ hash: row.txid });
      nonces.add(tx.nonce);
      const got = await anvil.client.getBalance({ address: row.address });
      if (got !== parseEther('0.01')) throw new Error(`${row.address} got ${got} wei`);
    }
    out(
      `checked on Anvil: ${sent.rows.length} receipts, ${nonces.size} distinct nonces, each recipient paid 0.01 ETH`,
    );

    // 2. Approval to broadcast.
    const latencies: number[] = [];
    for (let i = 0; i < APPROVALS; i++) {
      const who = members[i % MEMBERS] as (typeof members)[number];
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const id = await requestWithdrawal(apiUrl, who.m, who.walletId, to, '0.1');
      await sleep(Math.random() * POLL_MS * 1.2);
      const res = await fetch(`${apiUrl}/ops/api/v1/withdrawals/${id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${op.token}`, 'idempotency-key': randomBytes(16).toString('hex') },
      });
      if (!res.ok) throw new Error(`approve ${id}: ${res.status} ${await res.text()}`);
      const approved = performance.now();
      for (;;) {
        const r = await sql<{ txid: Hex | null }>`select txid from transfers where id = ${id}`.execute(
          app.deps.db,
        );
        const txid = r.rows[0]?.txid;
        if (txid && (await anvil.client.getTransaction({ hash: txid }).catch(() => null))) break;
        if (performance.now() - approved > 120_000) throw new Error(`withdrawal ${id} not sent in 2 min`);
        await sleep(5);
      }
      latencies.push(performance.now() - approved);
    }
    out(
      `approval -> on the node, ${APPROVALS} withdrawals: p50 ${quantile(latencies, 0.5).toFixed(0)} ms, ` +
        `p95 ${quantile(latencies, 0.95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
    );

    await stopChild(api);
    api = undefined;
    // 3. The yardstick, with the API stopped so it does not share the cores.
    const bare = await bareRate();
    out(
      `bare Fastify POST (32 connections, ${DURATION} s): ${bare.toFixed(0)} req/s; the burst's rate is ` +
        `${((ids.length / span / bare) * 100).toFixed(2)}% of it`,
    );
  } finally {
    await stopChild(api);
    await app.close();
    await dbh.close();
    await signer.stop();
    await anvil.stop();
    if (process.env.BENCH_KEEP_DB !== '1') await fresh.drop();
  }
}

await main();
