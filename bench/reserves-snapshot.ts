// Proof of reserves (issue 28 "Done when"): time and memory to snapshot 1,000,000 members of one coin (goal:
// under 10 s and under 500 MB). A fresh PostgreSQL database (dropped at the end) gets 1,000,000 members with a
// BTC available balance and 50,000 escrow balances by generate_series; then takeSnapshot (the function the daily
// job and POST /ops/api/v1/reserves/snapshot run) reads the liabilities in one repeatable-read transaction, places
// and hashes the leaves in this process and stores the tree's blobs chunk by chunk. Figures: wall time per phase,
// CPU time of this process and of the PostgreSQL backend (the load-independent figure on a shared machine), the
// process's peak RSS (getrusage maxrss) and its growth during the snapshot, and a proof read back and verified.
// Needs PostgreSQL:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/reserves-snapshot.ts
//   BENCH_MEMBERS=1000000 BENCH_RUNS=2; BENCH_KEEP_DB=1 keeps the seeded database and prints its URL,
//   BENCH_DB_URL=<that url> runs on it again without seeding (and keeps it)
import { readFileSync } from 'node:fs';
import { fromUnits } from '@p2p/contract';
import { verifyProof } from '@p2p/reserves';
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { type Db, openDb } from '../apps/api/src/db/client.ts';
import { memberProof } from '../apps/api/src/modules/reserves/queries.ts';
import { takeSnapshot } from '../apps/api/src/modules/reserves/repo-snapshot.ts';
import { freshDatabase } from '../apps/api/test/infra.ts';

const base = process.env.DATABASE_URL;
if (!base) {
  process.stderr.write('bench/reserves-snapshot.ts needs DATABASE_URL (PostgreSQL)\n');
  process.exit(1);
}
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const reuse = process.env.BENCH_DB_URL;
const db = reuse ? { url: reuse, drop: async () => undefined } : await freshDatabase(base, 'bench_reserves');
try {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    DATABASE_URL: db.url,
    RESERVES_SNAPSHOT_HOURS: '0',
  });
  const dbh = await openDb({ databaseUrl: db.url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true, startWatchers: false });
  if (!reuse) await seed(app.deps.db);
  await sql`delete from reserve_snapshots`.execute(app.deps.db);
  const reading = { source: 'DECLARED' as const, units: 0n, addresses: [] };
  for (let run = 1; run <= RUNS; run++) {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const peakBefore = peakRss();
    const t0 = performance.now();
    const timings: Record<string, number> = {};
    const cpuBefore = await databaseCpu(app.deps.db);
    const apiCpuBefore = process.cpuUsage();
    const id = await takeSnapshot(app.deps.db, 'BTC', { reading, takenBy: null, timings });
    const ms = performance.now() - t0;
    const apiCpu = process.cpuUsage(apiCpuBefore);
    const dbCpu = (await databaseCpu(app.deps.db)) - cpuBefore;
    const row = await app.deps.db
      .selectFrom('reserve_snapshots')
      .select(['root_sum', 'leaf_count', 'member_count'])
      .where('id', '=', id ?? 0)
      .executeTakeFirstOrThrow();
    process.stdout.write(
      `run ${run}: snapshot of ${row.member_count.toLocaleString()} members (${row.leaf_count.toLocaleString()} leaves, ` +
        `liabilities ${fromUnits(BigInt(row.root_sum))} BTC) in ${s(ms)}; ` +
        `RSS before ${mb(rssBefore)}, process peak ${mb(peakRss())} (peak before ${mb(peakBefore)})\n` +
        `  CPU during the snapshot: PostgreSQL backends ${dbCpu.toFixed(2)} s, this process ` +
        `${((apiCpu.user + apiCpu.system) / 1e6).toFixed(2)} s (user + system), total ` +
        `${(dbCpu + (apiCpu.user + apiCpu.system) / 1e6).toFixed(2)} s\n` +
        `  phases: ${Object.entries(timings)
          .map(([k, v]) => `${k} ${s(v)}`)
          .join(', ')}\n`,
    );
  }
  const proof = await memberProof(app.deps.db, Math.floor(MEMBERS / 2), 'BTC');
  const p0 = performance.now();
  const ok = verifyProof(proof).ok;
  process.stdout.write(
    `a member's proof: ${proof.path.length} steps, verifies: ${ok} (${(performance.now() - p0).toFixed(1)} ms)\n`,
  );
  await app.close();
  await dbh.close();
} finally {
  if (process.env.BENCH_KEEP_DB || reuse) process.stdout.write(`database kept: ${db.url}\n`);
  else await db.drop();
}

/**
 * CPU seconds (user + system) the PostgreSQL backends of this database have used so far, from /proc (the server
 * runs on this machine): on a shared machine wall time says more about the other processes than about the
 * snapshot, CPU time does not. NaN when /proc is not readable.
 */
async function databaseCpu(kdb: Db): Promise<number> {
  const r = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database()`.execute(kdb);
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const { pid } of r.rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      return Number.NaN;
    }
  }
  return total;
}

/** 1,000,000 members (BENCH_MEMBERS) with a BTC available balance each, a twentieth also with 0.5 BTC in escrow. */
async function seed(kdb: Db): Promise<void> {
  const seedStart = performance.now();
  await sql`insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
    select 'r' || g, 'rn' || g, 'Bench', '82', '+8210' || lpad(g::text, 8, '0'), 'x'
    from generate_series(1, ${MEMBERS}::int) g`.execute(kdb);
  // balances from 0.00000001 to about 21 BTC, every member; a twentieth also hold some in escrow
  await sql`insert into ledger_accounts (member_id, coin, kind, balance)
    select id, 'BTC', 'available', ((id * 7919) % 2100000000 + 1) / 100000000.0 from members`.execute(kdb);
  await sql`insert into ledger_accounts (member_id, coin, kind, balance)
    select id, 'BTC', 'escrow', 0.5 from members where id % 20 = 0`.execute(kdb);
  await sql`analyze`.execute(kdb);
  process.stdout.write(`seeded ${MEMBERS.toLocaleString()} members in ${s(performance.now() - seedStart)}\n`);
}
