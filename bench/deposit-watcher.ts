// The ETH deposit watcher on Anvil (issue 23 "Done when"): blocks scanned per second with 10,000 member
// addresses and the memory that takes, then the time from the block that gives a deposit its last confirmation
// to its credit with the poll loop running at CHAIN_POLL_MS=500. Needs PostgreSQL (a fresh database, dropped
// at the end):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/deposit-watcher.ts
//   BENCH_MEMBERS=10000 BENCH_BLOCKS=300 BENCH_TX_PER_BLOCK=6 BENCH_CONFIRMATIONS=12 BENCH_LATENCY_RUNS=20
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Address } from 'viem';
import { buildApp } from '../apps/api/src/app.ts';
import { normalizeAddress } from '../apps/api/src/chains/index.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/client.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';
import { startAnvil } from '../apps/api/test/nodes.ts';

const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('bench/deposit-watcher.ts needs DATABASE_URL (PostgreSQL)\n');
  process.exit(1);
}
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 300);
const TX_PER_BLOCK = Number(process.env.BENCH_TX_PER_BLOCK ?? 6);
const CONFIRMATIONS = Number(process.env.BENCH_CONFIRMATIONS ?? 12);
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 20);
const POLL_MS = 500;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const db = await freshDatabase(base, 'bench_deposits');
const anvil = await startAnvil({ automine: false });
try {
  const start = (await anvil.height()) + 1;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    DATABASE_URL: db.url,
    CHAIN_NETWORK: 'regtest',
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: String(CONFIRMATIONS),
    CHAIN_START_HEIGHT_ETH: String(start),
    CHAIN_POLL_MS: String(POLL_MS),
  });
  const dbh = await openDb({ databaseUrl: db.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true, startWatchers: false });
  const watcher = app.depositWatchers.watchers.get('ETH');
  if (!watcher) throw new Error('no ETH watcher');

  // 10,000 members with an ETH wallet each: random addresses (the watcher does not care how they were derived).
  const addresses: string[] = [];
  for (let i = 0; i < MEMBERS; i++)
    addresses.push(normalizeAddress('ETH', `0x${randomBytes(20).toString('hex')}`));
  await sql`insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
    select 'b' || g, 'bn' || g, 'Bench', '82', '+8210' || lpad(g::text, 8, '0'), 'x'
    from generate_series(1, ${MEMBERS}::int) g`.execute(app.deps.db);
  await sql`insert into wallets (member_id, coin, address, derivation_index)
    select m.id, 'ETH', a.address, a.i from unnest(${addresses}::text[]) with ordinality as a(address, i)
    join members m on m.login_id = 'b' || a.i`.execute(app.deps.db);

  // BLOCKS blocks of TX_PER_BLOCK transfers each, half to members, half elsewhere.
  const payer = anvil.accounts[0] as Address;
  let toMembers = 0;
  for (let b = 0; b < BLOCKS; b++) {
    for (let t = 0; t < TX_PER_BLOCK; t++) {
      const member = t % 2 === 0;
      if (member) toMembers++;
      const to = (
        member
          ? addresses[Math.floor(Math.random() * addresses.length)]
          : `0x${randomBytes(20).toString('hex')}`
      ) as Address;
      await anvil.client.sendTransaction({ account: payer, to, value: 10n ** 15n + BigInt(b), chain: null });
    }
    await anvil.mine(1);
  }
  const tip = await anvil.height();

  global.gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  for (;;) {
    const r = await watcher.scan();
    if (r.error) throw new Error(r.error);
    if (r.caughtUp) break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = process.memoryUsage();
  const scanned = tip - start + 1;
  const rows = await sql<{ n: number }>`select count(*)::int as n from transfers`.execute(app.deps.db);
  process.stdout.write(
    `scan: ${scanned} blocks (${BLOCKS * TX_PER_BLOCK} transfers, ${toMembers} to ${MEMBERS} member addresses) ` +
      `in ${seconds.toFixed(1)} s = ${(scanned / seconds).toFixed(1)} blocks/s; deposits recorded ${rows.rows[0]?.n}; ` +
      `rss ${mb(before.rss)} -> ${mb(after.rss)}, heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}\n`,
  );

  // The poll loop: a deposit, then its confirmations; time from the confirming block to the credit.
  watcher.start();
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const to = addresses[i] as Address;
    const hash = await anvil.client.sendTransaction({ account: payer, to, value: 10n ** 16n, chain: null });
    await anvil.mine(1);
    if (CONFIRMATIONS > 1) await anvil.mine(CONFIRMATIONS - 2);
    // let the watcher see the blocks before the confirming one, as a live chain spreads them over time, and
    // mine the confirming block at a random moment of the poll cycle (the loop's phase is not the chain's)
    await new Promise((r) => setTimeout(r, 2 * POLL_MS + Math.random() * POLL_MS));
    await anvil.mine(1);
    const mined = performance.now();
    for (;;) {
      const r = await sql<{ status: string }>`select status from transfers where txid = ${hash}`.execute(
        app.deps.db,
      );
      if (r.rows[0]?.status === 'COMPLETED') break;
      await new Promise((res) => setTimeout(res, 10));
    }
    latencies.push(performance.now() - mined);
  }
  process.stdout.write(
    `block to credit at CHAIN_POLL_MS=${POLL_MS}, ${CONFIRMATIONS} confirmations, ${LATENCY_RUNS} deposits: ` +
      `median ${median(latencies).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms\n`,
  );
  await app.close();
  await dbh.close();
} finally {
  await anvil.stop();
  await db.drop();
}
