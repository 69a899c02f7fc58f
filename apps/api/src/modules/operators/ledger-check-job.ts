import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { everyInterval } from '../../interval-job.ts';
import { type Invariant, type LedgerCheckOptions, ledgerCheckTick } from '../../ledger/index.ts';
import { acquireJobLease, markJobRun, releaseJobLease } from '../records/index.ts';

/** The lease's name in job_leases. */
export const LEDGER_CHECK_JOB = 'ledger-check';

/**
 * Starts the ledger check job of this instance (issue 27, DECISIONS §4, §14): every `intervalMs` it takes or
 * renews the `ledger-check` lease (held for three intervals, so a long tick keeps it) and, when it holds it, runs
 * one tick: the incremental pass over the postings since the last verified one, and a slice of the full pass when
 * one is due (every `fullEveryMs`) or was asked for. One instance checks at a time; a crashed holder is replaced
 * when its lease ends. The returned stop() clears the timer, waits for a tick in flight and gives the lease up.
 * `intervalMs` 0 = off (tests run ledgerCheckTick by hand).
 */
export function startLedgerCheckJob(
  db: Db,
  invariants: Invariant[],
  o: LedgerCheckOptions & { intervalMs: number },
  log: { error: (obj: unknown, msg: string) => void; warn: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  if (o.intervalMs <= 0) return async () => undefined;
  const holder = randomUUID();
  const runOnce = async () => {
    if (!(await acquireJobLease(db, LEDGER_CHECK_JOB, holder, o.intervalMs * 3))) return;
    const out = await ledgerCheckTick(db, invariants, o);
    await markJobRun(db, LEDGER_CHECK_JOB, holder);
    if (out.problems.length > 0) log.warn({ problems: out.problems }, 'ledger check found problems');
  };
  const stop = everyInterval(o.intervalMs, runOnce, (err) => log.error({ err }, 'ledger check failed'));
  return async () => {
    await stop();
    await releaseJobLease(db, LEDGER_CHECK_JOB, holder).catch(() => undefined);
  };
}
