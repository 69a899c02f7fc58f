import type { Db, DbOrTx } from '../db/client.ts';
import { inTx } from '../db/tx.ts';
import type { Invariant } from './check.ts';
import {
  accountSums,
  accountWideProblems,
  adoptFullSums,
  type CheckState,
  clearDirty,
  clearFullSums,
  driftedAccounts,
  mismatchedCoins,
  newestPosting,
  readCheckState,
  recordRun,
  type SumTable,
  setRunningSum,
  sumChunk,
  unbalancedEntries,
  writeCheckState,
} from './check-repo.ts';

/** How the ledger check job works through the postings (issue 27). */
export interface LedgerCheckOptions {
  /**
   * Ms after which every posting id up to a checkpoint (max id seen then) is final: a transaction that took an
   * id before the checkpoint has committed or rolled back by then. 0 = at once (a test with nothing concurrent).
   */
  settleMs: number;
  /** Posting ids per chunk: one transaction and a few statements each, aggregated in PostgreSQL. */
  chunk: number;
  /** Ms one tick may spend on chunks (at least one chunk of each pass runs); Infinity = to the end. */
  budgetMs: number;
  /** Ms between full passes (0 = only when an operator asks for one). */
  fullEveryMs: number;
}

/** What one tick did. */
export interface TickOutcome {
  /** Postings the incremental pass verified in this tick. */
  verified: number;
  /** True when the incremental pass reached the newest final posting and compared the touched balances. */
  caughtUp: boolean;
  /** New problems found in this tick. */
  problems: string[];
  /** The full pass: null when none runs, else how far it is (0..1) and whether it finished in this tick. */
  full: { progress: number; finished: boolean } | null;
}

const MAX_PROBLEMS = 100;
const merge = (a: string[], b: string[]) => [...new Set([...a, ...b])].slice(0, MAX_PROBLEMS);

/** Entry and coin findings of posting ids (lo, hi], and their sums added to `table`. */
async function verifyChunk(tx: DbOrTx, table: SumTable, lo: number, hi: number) {
  const problems = [...(await unbalancedEntries(tx, lo, hi)), ...(await mismatchedCoins(tx, lo, hi))];
  const counted = await sumChunk(tx, table, lo, hi);
  return { problems, ...counted };
}

/** The newest final posting id: a checkpoint old enough is used, and a new one taken. */
async function finalThrough(db: Db, st: CheckState, settleMs: number): Promise<number> {
  const newest = await newestPosting(db);
  if (settleMs <= 0) {
    await writeCheckState(db, { checkpoint_id: newest.id, checkpoint_at: newest.now });
    return newest.id;
  }
  const usable =
    st.checkpointId !== null &&
    st.checkpointAt !== null &&
    newest.now.getTime() - st.checkpointAt.getTime() >= settleMs;
  if (st.checkpointId === null || usable) {
    await writeCheckState(db, { checkpoint_id: newest.id, checkpoint_at: newest.now });
  }
  return usable ? Math.max(st.verifiedThrough, st.checkpointId ?? 0) : st.verifiedThrough;
}

/**
 * Compares the balances of the accounts touched since the last comparison with their running sum plus the
 * postings after `through`, in one snapshot. An account that differs is summed again from all its postings
 * before it is reported: a posting met late (its transaction outlived the settle time) only corrects the sum.
 */
async function compareTouched(db: Db, through: number): Promise<string[]> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const problems: string[] = [];
      for (const d of await driftedAccounts(tx, 'ledger_check_accounts', through, true)) {
        const s = await accountSums(tx, d.id, through);
        if (s.equal) await setRunningSum(tx, d.id, s.upTo);
        else problems.push(`account ${d.id}: balance ${s.balance} but postings sum to ${s.all}`);
      }
      await clearDirty(tx);
      const st = await readCheckState(tx, true);
      await writeCheckState(tx, { problems: merge(st.problems, problems), last_incremental_at: new Date() });
      return problems;
    });
}

/**
 * The incremental pass: verifies the final postings after `verified_through` chunk by chunk (each chunk one
 * transaction: its entries balanced per coin, its coins its accounts', its sums added), and once caught up
 * compares the touched balances. Findings join the stored open problems; a run with work is recorded.
 */
async function incremental(db: Db, o: LedgerCheckOptions, deadline: number) {
  const startedAt = new Date();
  const st = await readCheckState(db);
  const final = await finalThrough(db, st, o.settleMs);
  const from = st.verifiedThrough;
  let at = from;
  let verified = 0;
  const found: string[] = [];
  while (at < final && (at === from || Date.now() < deadline)) {
    const hi = Math.min(final, at + o.chunk);
    const lo = at;
    const c = await inTx(db, async (tx) => {
      const r = await verifyChunk(tx, 'ledger_check_accounts', lo, hi);
      const cur = await readCheckState(tx, true);
      await writeCheckState(tx, {
        verified_through: hi,
        postings: cur.postings + r.postings,
        entries: cur.entries + r.entries,
        problems: merge(cur.problems, r.problems),
      });
      return r;
    });
    found.push(...c.problems);
    verified += c.postings;
    at = hi;
  }
  const caughtUp = at >= final;
  if (caughtUp) found.push(...(await compareTouched(db, at)));
  if (verified > 0 || found.length > 0) {
    await recordRun(db, {
      kind: 'INCREMENTAL',
      problems: found,
      from,
      through: at,
      postings: verified,
      startedAt,
    });
  }
  return { verified, caughtUp, problems: found };
}

/** Starts a full pass when one is due or asked for; answers the state to continue from (null: none runs). */
async function startFullIfDue(db: Db, o: LedgerCheckOptions): Promise<CheckState | null> {
  const st = await readCheckState(db);
  if (st.fullThrough !== null) return st;
  const due =
    st.fullRequested ||
    (o.fullEveryMs > 0 && (st.lastFullAt === null || Date.now() - st.lastFullAt.getTime() >= o.fullEveryMs));
  // Not before the incremental pass has verified some postings of a ledger that has them (a first start on an
  // existing ledger): the pass's end compares against the postings after its bound, here all of them at once.
  if (!due || (st.verifiedThrough === 0 && (st.checkpointId ?? 0) > 0)) return null;
  await inTx(db, async (tx) => {
    await clearFullSums(tx);
    await writeCheckState(tx, {
      full_requested: false,
      full_through: st.verifiedThrough,
      full_position: 0,
      full_started_at: new Date(),
      full_problems: [],
      full_entries: 0,
      full_postings: 0,
    });
  });
  return readCheckState(db);
}

/**
 * The full pass's end, in one snapshot: every account's balance against its recomputed sum plus the postings
 * after the pass's bound, the per-coin totals, negative member accounts and the modules' invariants. The fresh
 * sums replace the running ones and the incremental pass continues from the bound.
 */
async function finishFull(db: Db, invariants: Invariant[], st: CheckState): Promise<string[]> {
  const through = st.fullThrough ?? 0;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const drift = await driftedAccounts(tx, 'ledger_check_full_sums', through, false);
      const wide = await accountWideProblems(tx);
      const extra: string[] = [];
      for (const inv of invariants) extra.push(...(await inv(tx)));
      const problems = merge(st.fullProblems, [
        ...wide.problems,
        ...drift.map((d) => `account ${d.id}: balance ${d.balance} but postings sum to ${d.expected}`),
        ...extra,
      ]);
      await readCheckState(tx, true);
      await adoptFullSums(tx);
      await writeCheckState(tx, {
        verified_through: through,
        problems,
        accounts: wide.accounts,
        entries: st.fullEntries,
        postings: st.fullPostings,
        last_full_at: new Date(),
        full_through: null,
        full_position: null,
        full_started_at: null,
        full_problems: [],
      });
      const startedAt = st.fullStartedAt ?? new Date();
      await recordRun(tx, { kind: 'FULL', problems, from: 0, through, postings: st.fullPostings, startedAt });
      return problems;
    });
}

/** The full pass's next chunks (within the budget) and, at its bound, its end. */
async function fullStep(db: Db, invariants: Invariant[], o: LedgerCheckOptions, deadline: number) {
  let st = await startFullIfDue(db, o);
  if (!st || st.fullThrough === null) return null;
  const through = st.fullThrough;
  const first = st.fullPosition ?? 0;
  let at = first;
  while (at < through && (at === first || Date.now() < deadline)) {
    const lo = at;
    const hi = Math.min(through, at + o.chunk);
    await inTx(db, async (tx) => {
      const r = await verifyChunk(tx, 'ledger_check_full_sums', lo, hi);
      const cur = await readCheckState(tx, true);
      await writeCheckState(tx, {
        full_position: hi,
        full_problems: merge(cur.fullProblems, r.problems),
        full_entries: cur.fullEntries + r.entries,
        full_postings: cur.fullPostings + r.postings,
      });
    });
    at = hi;
  }
  if (at < through) return { progress: at / through, finished: false, problems: [] };
  st = await readCheckState(db);
  return { progress: 1, finished: true, problems: await finishFull(db, invariants, st) };
}

/**
 * One tick of the ledger check (DECISIONS §4, issue 27): the incremental pass over the postings since the last
 * verified one, then a slice of the full pass when one is due or running. Memory stays bounded at any ledger
 * size: each chunk is aggregated in PostgreSQL and at most 100 findings per query come back. Callers hold the
 * `ledger-check` lease (modules/operators) or run it alone (tests, the CLI).
 */
export async function ledgerCheckTick(
  db: Db,
  invariants: Invariant[],
  o: LedgerCheckOptions,
): Promise<TickOutcome> {
  const deadline = Date.now() + o.budgetMs;
  const inc = await incremental(db, o, deadline);
  const full = inc.caughtUp ? await fullStep(db, invariants, o, deadline) : null;
  return {
    verified: inc.verified,
    caughtUp: inc.caughtUp,
    problems: merge(inc.problems, full?.problems ?? []),
    full: full ? { progress: full.progress, finished: full.finished } : null,
  };
}

/** Asks for a full pass: the lease holder starts it at its next tick. */
export async function requestFullCheck(db: DbOrTx): Promise<void> {
  await writeCheckState(db, { full_requested: true });
}

/** The stored result the endpoint answers (GET /ops/api/v1/ledger/check), without reading a posting. */
export interface StoredLedgerCheck {
  ok: boolean;
  problems: string[];
  checkedAt: string | null;
  lastFullAt: string | null;
  verifiedThrough: number;
  counts: { accounts: number; entries: number; postings: number };
  fullRequested: boolean;
  /** The full pass running now: its bound, how far it got (posting ids) and the share done (0..1). */
  fullPass: { startedAt: string | null; through: number; position: number; progress: number } | null;
}

/** Reads the stored result: one row. */
export async function storedLedgerCheck(db: DbOrTx): Promise<StoredLedgerCheck> {
  const st = await readCheckState(db);
  const through = st.fullThrough ?? 0;
  const position = st.fullPosition ?? 0;
  return {
    ok: st.problems.length === 0,
    problems: st.problems,
    checkedAt: (st.lastIncrementalAt ?? st.lastFullAt)?.toISOString() ?? null,
    lastFullAt: st.lastFullAt?.toISOString() ?? null,
    verifiedThrough: st.verifiedThrough,
    counts: { accounts: st.accounts, entries: st.entries, postings: st.postings },
    fullRequested: st.fullRequested,
    fullPass:
      st.fullThrough === null
        ? null
        : {
            startedAt: st.fullStartedAt?.toISOString() ?? null,
            through,
            position,
            progress: through === 0 ? 1 : position / through,
          },
  };
}
