/**
 * Deposit watcher benchmark (issue 23, DECISIONS §17): the ETH watcher of the API, as its own process on
 * PostgreSQL, reading a real Anvil node that this bench starts.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/chain-watcher.ts
 *   BENCH_WALLETS (10000: member ETH deposit addresses), BENCH_BLOCKS (300: blocks of the mix),
 *   BENCH_TXS_PER_BLOCK (20), BENCH_DEPOSITS (20: timed deposits), BENCH_POLL_MS (500: CHAIN_POLL_MS),
 *   BENCH_PROFILE=1 (the API under `node --cpu-prof`; summarize with `node bench/profile-top.mjs <file>`),
 *   BENCH_KEEP_DB=1 (keeps the database)
 *
 * 1. Scan rate: BENCH_WALLETS members with an ETH wallet (SQL, addresses derived from the same xpub as the API,
 *    as the wallet service derives them), then BENCH_BLOCKS blocks mined with a mix per block: 3 transfers to
 *    member addresses, 1 member paid by a forwarding contract (an internal call: found only through the call
 *    trace), 1 stranger paid by the contract, 1 contract call that pays a member and reverts (never credited),
 *    the rest plain transfers to strangers. While the mix is mined the bench holds the watcher's lease, so the
 *    API's watcher waits; then it lets go and times the API catching up from the first block of the mix to the
 *    tip (cursor height sampled in chain_watchers every 10 ms). Blocks/s = blocks applied / time between the first
 *    and the last cursor move.
 *    Memory: the API's RSS and heap (from its /metrics: process_resident_memory_bytes, nodejs_heap_size_used_bytes,
 *    the minimum heap of 12 samples over 3 s, i.e. close to after a GC) with no member wallet, after the wallets
 *    were inserted, and after the scan; and PostgreSQL's size of the wallets table and its indexes.
 * 2. Credit latency: BENCH_DEPOSITS members (real service: createWallet), each with an SSE stream
 *    (GET /api/v1/events) open. Per deposit: pay, mine it and required - 2 more blocks, wait until the member's
 *    GET /transfer shows it PENDING with required - 1 confirmations, sleep a random 0-1.2 s (so the confirming
 *    block falls anywhere in the poll period), mine the confirming block; latency = from anvil_mine's answer to the
 *    SSE `transfer` event with status COMPLETED; also the time to the credit's transaction start (the row's
 *    completed_at) to split poll wait + node reads from commit + event delivery. Checked afterwards through GET
 *    /transfer (COMPLETED, the txid) and GET /wallets (the balance).
 * 3. Baseline in the same run: sequential eth_getBlockByNumber(full) + debug_traceBlockByHash(callTracer) over the
 *    mix blocks with fetch (the node's own ceiling for what the watcher asks), and ethReader().block() over the same
 *    blocks (node + viem + zod + the trace walk, no database): run before and after the watcher's scan.
 *
 * A fresh database is created and dropped. Not a test: prints figures and never fails on them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { type Address, type Hex, numberToHex } from 'viem';
import { buildApp } from '../apps/api/src/app.ts';
import { ethReader } from '../apps/api/src/chains/eth-reader.ts';
import { depositAddress } from '../apps/api/src/chains/index.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import { createMember, createWalletFor, type FixtureMember } from '../apps/api/test/fixtures.ts';
import { FORWARDER_BYTECODE, forwardCall, payThenRevertCall } from '../apps/api/test/forwarder.ts';
import type { TestApp } from '../apps/api/test/helpers.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { startAnvil } from '../apps/api/test/nodes.ts';
import { devXpubs, freePort } from '../scripts/cluster.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('DATABASE_URL (PostgreSQL) is required\n');
  process.exit(2);
}
const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 300);
const TXS_PER_BLOCK = Math.max(6, Number(process.env.BENCH_TXS_PER_BLOCK ?? 20));
const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 20);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 500);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** DECISIONS §17's default for ETH; the API runs with it (CHAIN_CONFIRMATIONS_ETH unset). */
const REQUIRED = 12;
const HOLDER = 'bench-holds-the-lease';
const GWEI = 10n ** 9n;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
};
const out = (line = '') => process.stdout.write(`${line}\n`);

/** A random 20-byte address nobody on the platform owns. */
const stranger = (): Address => `0x${randomBytes(20).toString('hex')}`;

/** JSON-RPC to the node with fetch: one call, or a batch (one HTTP request) of calls. */
function rpcClient(url: string) {
  let id = 0;
  async function post(body: unknown): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`node answered HTTP ${res.status}`);
    return res.json();
  }
  const check = (r: { result?: unknown; error?: { message: string } }) => {
    if (r.error) throw new Error(r.error.message);
    return r.result;
  };
  return {
    async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
      return check((await post({ jsonrpc: '2.0', id: ++id, method, params })) as never) as T;
    },
    async batch(calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
      if (calls.length === 0) return [];
      const answers = (await post(calls.map((c) => ({ jsonrpc: '2.0', id: ++id, ...c })))) as {
        id: number;
        result?: unknown;
        error?: { message: string };
      }[];
      return answers.sort((a, b) => a.id - b.id).map(check);
    },
  };
}
type Rpc = ReturnType<typeof rpcClient>;

/** The API's memory from its /metrics: last RSS and the smallest heapUsed of `samples` taken 250 ms apart. */
async function apiMemory(apiUrl: string, samples = 12): Promise<{ rss: number; heap: number }> {
  let heap = Number.POSITIVE_INFINITY;
  let rss = 0;
  for (let i = 0; i < samples; i++) {
    const text = await (await fetch(`${apiUrl}/metrics`)).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    heap = Math.min(heap, metric('nodejs_heap_size_used_bytes'));
    rss = metric('process_resident_memory_bytes');
    await sleep(250);
  }
  return { rss, heap };
}

async function pgSizes(db: pg.Client): Promise<{ table: number; indexes: number }> {
  const r = await db.query<{ t: string; i: string }>(
    `select pg_table_size('wallets') t, pg_indexes_size('wallets') i`,
  );
  return { table: Number(r.rows[0]?.t), indexes: Number(r.rows[0]?.i) };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(150);
  }
  throw new Error(`${url}: not ready`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

/**
 * Sequential node calls over heights [from, to]: what the watcher's reads cost the node alone. Answers blocks/s
 * and the mean milliseconds of each call.
 */
async function nodeBaseline(
  rpc: Rpc,
  from: number,
  to: number,
): Promise<{ rate: number; blockMs: number; traceMs: number }> {
  let blockMs = 0;
  let traceMs = 0;
  const t0 = performance.now();
  for (let h = from; h <= to; h++) {
    const a = performance.now();
    const block = await rpc.call<{ hash: Hex }>('eth_getBlockByNumber', [numberToHex(h), true]);
    const b = performance.now();
    await rpc.call('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }]);
    blockMs += b - a;
    traceMs += performance.now() - b;
  }
  const n = to - from + 1;
  return { rate: n / ((performance.now() - t0) / 1000), blockMs: blockMs / n, traceMs: traceMs / n };
}

/** ethReader().block() over heights [from, to]: node + viem + zod + the trace walk, no database. */
async function readerBaseline(
  url: string,
  from: number,
  to: number,
): Promise<{ rate: number; payments: number }> {
  const reader = ethReader({ url, network: 'regtest' });
  let payments = 0;
  const t0 = performance.now();
  for (let h = from; h <= to; h++) payments += (await reader.block(h)).payments.length;
  return { rate: (to - from + 1) / ((performance.now() - t0) / 1000), payments };
}

/** One member's live events: resolves `completed(id)` when a `transfer` event says transfer `id` is COMPLETED. */
function eventStream(apiUrl: string, token: string) {
  const controller = new AbortController();
  const seen = new Map<number, number>();
  const waiters = new Map<number, (t: number) => void>();
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => {
    opened = r;
  });
  void (async () => {
    const res = await fetch(`${apiUrl}/api/v1/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) throw new Error(`GET /api/v1/events: ${res.status}`);
    opened();
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
        const msg = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const lines = msg.split('\n');
        if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`sse: ${JSON.stringify(msg)}\n`);
        if (!lines.includes('event: transfer')) continue;
        const data = lines.find((l) => l.startsWith('data: '));
        if (!data) continue;
        const e = JSON.parse(data.slice(6)) as { id: number | string; status: string };
        if (e.status !== 'COMPLETED') continue;
        const at = performance.now();
        seen.set(Number(e.id), at);
        waiters.get(Number(e.id))?.(at);
      }
    }
  })().catch((err) => {
    if (!controller.signal.aborted) process.stderr.write(`event stream failed: ${String(err)}\n`);
  });
  return {
    open,
    completed(id: number): Promise<number> {
      const at = seen.get(id);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((r) => waiters.set(id, r));
    },
    close: () => controller.abort(),
  };
}

async function main(): Promise<void> {
  const fresh = await freshDatabase(base ?? '', 'bench');
  const anvil = await startAnvil({ automine: false });
  const rpc = rpcClient(anvil.url);
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info', // as in production; the API's stdout goes to /dev/null
    PRICE_PROVIDER: 'static',
    SEED_DEMO: '0',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...devXpubs(),
    DATABASE_URL: fresh.url,
    CHAIN_NETWORK: 'regtest',
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_POLL_MS: String(POLL_MS),
  };
  // The bench's own app instance (no watcher running): migrations, the fixtures' members and sessions, the
  // derivation keys the API uses (same xpubs), so the bench knows the deposit addresses.
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', ORDER_TIMER_INTERVAL_MS: '0' });
  const dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true, startWatchers: false });
  const t = { app, config } as unknown as TestApp;
  const db = new pg.Client({ connectionString: fresh.url });
  await db.connect();
  let api: ChildProcess | undefined;
  try {
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    out(`chain-watcher bench ${new Date().toISOString()}  load average ${load}`);
    out(
      `wallets ${WALLETS}, mix ${BLOCKS} blocks x ${TXS_PER_BLOCK} txs, ${DEPOSITS} timed deposits, CHAIN_POLL_MS=${POLL_MS}, ETH confirmations ${REQUIRED}`,
    );

    // The bench holds the ETH watcher's lease: the API's watcher stays inactive until it is let go.
    await db.query(
      `insert into chain_watchers (coin, holder, lease_until) values ('ETH', $1, now() + interval '1 hour')`,
      [HOLDER],
    );
    const forwarderTx = await rpc.call<Hex>('eth_sendTransaction', [
      { from: anvil.accounts[0], data: FORWARDER_BYTECODE, gas: numberToHex(1_000_000) },
    ]);
    await anvil.mine(1);
    const forwarder = (
      await rpc.call<{ contractAddress: Address }>('eth_getTransactionReceipt', [forwarderTx])
    ).contractAddress;
    const mixFrom = (await anvil.height()) + 1;

    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const profileDir = resolve(tmpdir(), 'p2p-bench-profiles');
    api = spawn(
      process.execPath,
      [
        ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        '--import',
        'tsx',
        'apps/api/src/server.ts',
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ...env,
          CHAIN_START_HEIGHT_ETH: String(mixFrom),
          PORT: String(apiPort),
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const spawnedAt = performance.now();
    await waitReady(`${apiUrl}/readyz`, api);
    await sleep(1000);
    const mem0 = await apiMemory(apiUrl);
    const pg0 = await pgSizes(db);

    // 1. The member addresses: derived like the wallet service does (index i of the coin's account key).
    let t0 = performance.now();
    const addresses: string[] = [];
    for (let i = 0; i < WALLETS; i++) addresses.push(depositAddress('ETH', i));
    const deriveS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    await sql`
      insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
      select 'bench' || g, 'bnick' || g, 'Bench Member ' || g, '82', '+8219' || lpad(g::text, 8, '0'), 'x'
      from generate_series(1, ${WALLETS}) g`.execute(dbh.db);
    await sql`
      insert into wallets (member_id, coin, address, derivation_index)
      select m.id, 'ETH', a.address, a.idx - 1
      from unnest(${addresses}::text[]) with ordinality as a(address, idx)
      join members m on m.login_id = 'bench' || a.idx`.execute(dbh.db);
    await sql`update derivation_counters set next_index = ${WALLETS} where coin = 'ETH'`.execute(dbh.db);
    await sql`analyze`.execute(dbh.db);
    const insertS = (performance.now() - t0) / 1000;
    await sleep(1000);
    const mem1 = await apiMemory(apiUrl);
    const pg1 = await pgSizes(db);
    out(
      `\n${WALLETS} member ETH wallets: addresses derived in ${deriveS.toFixed(1)} s, inserted by SQL in ${insertS.toFixed(1)} s`,
    );

    // The mix, mined while the watcher waits.
    t0 = performance.now();
    const senders = anvil.accounts.slice(1);
    const nonces = new Map<Address, number>();
    for (const a of senders)
      nonces.set(a, await rpc.call<number>('eth_getTransactionCount', [a, 'pending']).then(Number));
    let k = 0;
    const send = (to: Address, value: bigint, data?: Hex) => {
      const from = senders[k++ % senders.length] as Address;
      const nonce = nonces.get(from) ?? 0;
      nonces.set(from, nonce + 1);
      return {
        method: 'eth_sendTransaction',
        params: [
          {
            from,
            to,
            value: numberToHex(value),
            nonce: numberToHex(nonce),
            gas: numberToHex(data ? 200_000 : 21_000),
            ...(data ? { data } : {}),
          },
        ],
      };
    };
    const member = () => addresses[Math.floor(Math.random() * addresses.length)] as Address;
    const amount = () => GWEI * BigInt(1_000_000 + Math.floor(Math.random() * 900_000_000)); // 0.001-0.9 ETH
    let memberPayments = 0;
    for (let b = 0; b < BLOCKS; b++) {
      const calls = [
        send(member(), amount()),
        send(member(), amount()),
        send(member(), amount()),
        send(forwarder, amount(), forwardCall(member())),
        send(forwarder, amount(), forwardCall(stranger())),
        send(forwarder, amount(), payThenRevertCall(member())),
      ];
      memberPayments += 4;
      while (calls.length < TXS_PER_BLOCK) calls.push(send(stranger(), amount()));
      await rpc.batch(calls);
      await anvil.mine(1);
    }
    const mixTo = await anvil.height();
    const mixTxs = await rpc.call<{ transactions: unknown[] }>('eth_getBlockByNumber', [
      numberToHex(mixTo),
      false,
    ]);
    out(
      `mix mined: blocks ${mixFrom}-${mixTo} in ${((performance.now() - t0) / 1000).toFixed(1)} s (last block ${mixTxs.transactions.length} txs; ${memberPayments} payments to members, ${BLOCKS} reverted contract payments to members)`,
    );

    // 3a. Baseline before.
    const node1 = await nodeBaseline(rpc, mixFrom, mixTo);
    const reader1 = await readerBaseline(anvil.url, mixFrom, mixTo);

    // 1. The watcher catches up; its cursor sampled every 10 ms.
    await db.query(`update chain_watchers set holder = null, lease_until = null where coin = 'ETH'`);
    const released = performance.now();
    const samples: { at: number; height: number }[] = [];
    for (;;) {
      const r = await db.query<{ height: string | null }>(
        `select height from chain_watchers where coin = 'ETH'`,
      );
      const h = r.rows[0]?.height == null ? null : Number(r.rows[0].height);
      const at = performance.now();
      if (h !== null && (samples.length === 0 || samples[samples.length - 1]?.height !== h))
        samples.push({ at, height: h });
      if (h !== null && h >= mixTo) break;
      if (at - released > 600_000) throw new Error('the watcher did not reach the tip in 10 minutes');
      await sleep(10);
    }
    // The first sample is the start cursor (mixFrom - 1); blocks applied after it until the tip.
    const moving = samples.filter((s) => s.height >= mixFrom);
    const first = moving[0];
    const last = samples[samples.length - 1];
    if (!first || !last) throw new Error('no cursor move seen');
    const scanS = (last.at - first.at) / 1000;
    const scanRate = (last.height - first.height) / scanS;
    const startedAfter = (first.at - released) / 1000;
    const chunk: string[] = [];
    for (let i = 0, from = first; i < moving.length; i++) {
      const s = moving[i] as { at: number; height: number };
      if (s.height - from.height >= 100 || i === moving.length - 1) {
        chunk.push(((s.height - from.height) / ((s.at - from.at) / 1000)).toFixed(0));
        from = s;
      }
    }
    if (PROFILE)
      out(
        `(profile: the scan ran from ${((first.at - spawnedAt) / 1000).toFixed(0)} to ${((last.at - spawnedAt) / 1000).toFixed(0)} s after the API started; PROFILE_FROM_S)`,
      );
    await sleep(1500);
    const mem2 = await apiMemory(apiUrl);
    const deposits = await db.query<{ status: string; n: string }>(
      `select status, count(*) n from transfers where coin = 'ETH' and type = 'DEPOSIT' group by status order by status`,
    );

    // 3b. Baseline after.
    const node2 = await nodeBaseline(rpc, mixFrom, mixTo);
    const reader2 = await readerBaseline(anvil.url, mixFrom, mixTo);

    out(`\n1. Scan rate (the API process catching up over the mix, ${WALLETS} addresses in the database)`);
    out(
      `  watcher: ${scanRate.toFixed(1)} blocks/s (${last.height - first.height} blocks in ${scanS.toFixed(2)} s; per 100 blocks ${chunk.join(', ')}/s; first block applied ${startedAfter.toFixed(2)} s after the lease was let go)`,
    );
    out(
      `  deposit rows after the scan: ${deposits.rows.map((r) => `${r.status} ${r.n}`).join(', ')} (payments ${reader1.payments} in the mix, all recipients)`,
    );
    out('  memory of the API process (RSS / heap used, min of 12 samples):');
    out(`    no member wallet:           ${mb(mem0.rss)} / ${mb(mem0.heap)}`);
    out(`    ${WALLETS} wallets inserted:    ${mb(mem1.rss)} / ${mb(mem1.heap)}`);
    out(`    after scanning the mix:     ${mb(mem2.rss)} / ${mb(mem2.heap)}`);
    out(
      `  PostgreSQL, wallets table / its indexes: ${mb(pg0.table)} / ${mb(pg0.indexes)} -> ${mb(pg1.table)} / ${mb(pg1.indexes)}`,
    );
    out('\n3. Baseline on the same node and blocks (sequential, before / after the scan)');
    out(
      `  eth_getBlockByNumber(full) + debug_traceBlockByHash by fetch: ${node1.rate.toFixed(1)} / ${node2.rate.toFixed(1)} blocks/s (per block ${node1.blockMs.toFixed(1)} + ${node1.traceMs.toFixed(1)} / ${node2.blockMs.toFixed(1)} + ${node2.traceMs.toFixed(1)} ms)`,
    );
    out(
      `  ethReader().block() (node + viem + zod + walk):              ${reader1.rate.toFixed(1)} / ${reader2.rate.toFixed(1)} blocks/s`,
    );
    const readerMs = 2000 / (reader1.rate + reader2.rate);
    const watcherMs = 1000 / scanRate;
    out(
      `  per block: watcher ${watcherMs.toFixed(1)} ms = reader ${readerMs.toFixed(1)} ms + database and the rest ${(watcherMs - readerMs).toFixed(1)} ms`,
    );

    // 2. Credit latency.
    const depositors: { m: FixtureMember; walletId: number; address: Address }[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const m = await createMember(t);
      const w = await createWalletFor(t, m.id, 'ETH');
      depositors.push({ m, walletId: w.id, address: w.address as Address });
    }
    const streams = depositors.map((d) => eventStream(apiUrl, d.m.token));
    await Promise.all(streams.map((s) => s.open));
    const api_ = async <T>(path: string, token: string): Promise<T> => {
      const res = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { returnData: T };
      if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
      return body.returnData;
    };
    type View = {
      transferId: number;
      status: string;
      txid: string | null;
      confirmations: number | null;
      amount: string;
    };
    const latencies: number[] = [];
    const toTxStart: number[] = [];
    const fromTxStart: number[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const d = depositors[i] as (typeof depositors)[number];
      const s = streams[i] as ReturnType<typeof eventStream>;
      const wei = 10n ** 17n + BigInt(i) * 10n ** 10n; // 0.1 ETH + i * 10^-8
      const [txid] = (await rpc.batch([send(d.address, wei)])) as Hex[];
      await anvil.mine(1);
      await anvil.mine(REQUIRED - 2);
      let view: View | undefined;
      for (let tries = 0; ; tries++) {
        view = (await api_<{ list: View[] }>(`/transfer?walletId=${d.walletId}&size=5`, d.m.token)).list[0];
        if (view?.confirmations === REQUIRED - 1) break;
        if (tries > 300)
          throw new Error(`deposit ${i} not seen at ${REQUIRED - 1} confirmations: ${JSON.stringify(view)}`);
        await sleep(50);
      }
      if (!view) throw new Error('no deposit row');
      await sleep(Math.random() * 1200);
      await anvil.mine(1);
      const minedAt = performance.now();
      const minedWall = Date.now();
      const at = await Promise.race([
        s.completed(view.transferId),
        sleep(30_000).then(() => {
          throw new Error(`deposit ${i}: no COMPLETED event within 30 s`);
        }),
      ]);
      latencies.push(at - minedAt);
      const r = await db.query<{ ms: string }>(
        `select extract(epoch from completed_at) * 1000 ms from transfers where id = $1`,
        [view.transferId],
      );
      const txStart = Number(r.rows[0]?.ms) - minedWall;
      toTxStart.push(txStart);
      fromTxStart.push(at - minedAt - txStart);
      const after = (await api_<{ list: View[] }>(`/transfer?walletId=${d.walletId}&size=5`, d.m.token))
        .list[0];
      if (after?.status !== 'COMPLETED' || after.txid !== txid)
        throw new Error(`deposit ${i}: the member sees ${JSON.stringify(after)}`);
    }
    for (const s of streams) s.close();
    const wallets = await api_<{ coinCode: string; balance: string }[]>(
      '/api/v1/wallets',
      depositors[0]?.m.token ?? '',
    );
    const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    out(
      `\n2. Confirming block mined -> COMPLETED (SSE transfer event), CHAIN_POLL_MS=${POLL_MS}, ${DEPOSITS} deposits`,
    );
    out(
      `  median ${f(quantile(latencies, 0.5))}, p90 ${f(quantile(latencies, 0.9))}, max ${f(Math.max(...latencies))}, min ${f(Math.min(...latencies))}`,
    );
    out(
      `  of which until the credit's transaction began (poll wait + node reads): median ${f(quantile(toTxStart, 0.5))}, max ${f(Math.max(...toTxStart))}`,
    );
    out(
      `  and from there to the event (block transaction, commit, NOTIFY, SSE): median ${f(quantile(fromTxStart, 0.5))}, max ${f(Math.max(...fromTxStart))}`,
    );
    out(
      `  every one COMPLETED with its txid in GET /transfer; first member's ETH balance ${wallets.find((w) => w.coinCode === 'ETH')?.balance}`,
    );
    out(`  all (ms): ${latencies.map((l) => l.toFixed(0)).join(' ')}`);
    out(
      `\nload average at the end ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
  } finally {
    if (api) await stopChild(api);
    await db.end();
    await app.close();
    await dbh.close();
    await anvil.stop();
    if (process.env.BENCH_KEEP_DB === '1') out(`kept database ${fresh.name}`);
    else await fresh.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
