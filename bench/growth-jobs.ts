/**
 * The jobs of bench/growth.ts on the grown database: how long one tick of each takes, and whether it read a
 * whole table. The check is PostgreSQL's own counters: `pg_stat_user_tables.seq_tup_read` before and after the
 * tick (after the backends flushed their statistics); a table of more than 10,000 rows whose sequential reads
 * grew by half its size or more was scanned whole.
 */
import { COINS } from '@p2p/contract';
import { sql } from 'kysely';
import type { buildApp } from '../apps/api/src/app.ts';
import type { Db } from '../apps/api/src/db/client.ts';
import { ledgerCheckTick } from '../apps/api/src/ledger/index.ts';
import { refreshListingTrades } from '../apps/api/src/modules/listings/index.ts';
import { runOrderTimers } from '../apps/api/src/modules/orders/timers.ts';
import { runRetentionPurge } from '../apps/api/src/modules/records/index.ts';
import { declaredReserves, takeSnapshot } from '../apps/api/src/modules/reserves/index.ts';

type SeqReads = Map<string, { seq: number; rows: number }>;

async function seqReads(db: Db): Promise<SeqReads> {
  const r = await sql<{ relname: string; seq: string; rows: string }>`
    select relname, coalesce(seq_tup_read, 0)::text as seq, n_live_tup::text as rows
    from pg_stat_user_tables`.execute(db);
  return new Map(r.rows.map((x) => [x.relname, { seq: Number(x.seq), rows: Number(x.rows) }]));
}

/** Backends flush their table counters when idle, at the latest 10 s later (PGSTAT_IDLE_INTERVAL). */
const FLUSH_WAIT_MS = 11_000;

async function timed(
  db: Db,
  name: string,
  run: () => Promise<unknown>,
  out: (s: string) => void,
): Promise<void> {
  await new Promise((r) => setTimeout(r, FLUSH_WAIT_MS));
  const before = await seqReads(db);
  const t0 = performance.now();
  let result: unknown;
  try {
    result = await run();
  } catch (err) {
    result = `failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, FLUSH_WAIT_MS));
  const after = await seqReads(db);
  const whole: string[] = [];
  for (const [table, a] of after) {
    const b = before.get(table);
    const read = a.seq - (b?.seq ?? 0);
    if (a.rows > 10_000 && read >= a.rows / 2) whole.push(`${table} (${read} of ${a.rows} rows)`);
  }
  out(
    `| ${name} | ${ms.toFixed(0)} ms | ${whole.length ? `scans ${whole.join(', ')}` : 'no whole-table scan'} | ${JSON.stringify(result) ?? ''} |\n`,
  );
}

/**
 * Times one tick of each job on the grown database and prints a table. Makes 50 REQUESTED orders due and 50
 * PAID orders due for escalation first, so the order timers tick has work, then a tick with nothing due.
 */
export async function timeJobs(
  app: Awaited<ReturnType<typeof buildApp>>,
  _url: string,
  out: (s: string) => void,
): Promise<void> {
  const db = app.deps.db;
  const cfg = app.deps.config;
  out('| job (one tick) | time | whole-table scans | result |\n|---|---|---|---|\n');
  await sql`update buy_orders set payment_deadline = now() - interval '1 minute'
    where id in (select id from buy_orders where status = 'REQUESTED' order by id desc limit 50)`.execute(db);
  await sql`update buy_orders set release_deadline = now() - interval '1 minute'
    where id in (select id from buy_orders where status = 'PAID' order by id desc limit 50)`.execute(db);
  await timed(db, 'order timers, 100 due (expiry + escalation)', () => runOrderTimers(db), out);
  await timed(db, 'order timers, nothing due', () => runOrderTimers(db), out);
  const rules = { years: cfg.retention.years, batch: cfg.retention.batch, loginBatch: 1000 };
  await timed(db, 'retention purge', () => runRetentionPurge(db, rules), out);
  await timed(db, 'retention purge, again', () => runRetentionPurge(db, rules), out);
  await timed(db, 'best listings figures (7 days of COMPLETED orders)', () => refreshListingTrades(db), out);
  // The ledger check as the lease holder runs it: the incremental pass within its budget (a grown ledger was
  // never verified, so the first ticks walk it chunk by chunk), then the same tick again.
  const lc = cfg.ledgerCheck;
  const job = { ...lc, fullEveryMs: lc.fullHours * 3_600_000, budgetMs: Math.max(1000, lc.intervalMs / 2) };
  const invariants = app.deps.invariants;
  const tick = async () => {
    const r = await ledgerCheckTick(db, invariants, job);
    return { verified: r.verified, caughtUp: r.caughtUp, problems: r.problems.length, full: r.full };
  };
  await timed(db, 'ledger check tick', tick, out);
  await timed(db, 'ledger check tick, again', tick, out);
  const read = declaredReserves(db);
  const coin = COINS[0];
  await timed(
    db,
    `reserves snapshot (${coin}, every balance: by design)`,
    async () => takeSnapshot(db, coin, { reading: await read(coin), takenBy: null }),
    out,
  );
  await timed(
    db,
    `reserves snapshot tick (${coin}, newer one exists)`,
    () =>
      takeSnapshot(db, coin, {
        reading: { source: 'NONE', units: null, addresses: [] },
        takenBy: null,
        ifOlderThanMs: 3_600_000,
      }),
    out,
  );
}
