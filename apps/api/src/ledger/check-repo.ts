import { sql } from 'kysely';
import type { DbOrTx } from '../db/client.ts';

/*
 * The SQL of the ledger check job (031_ledger_check_job.sql): chunk passes over ledger_postings by id range,
 * aggregated in PostgreSQL (memory bounded by the chunk, never by the table), and the job's stored state.
 */

/** Where a chunk's per-account sums go: the incremental pass's running sums or the full pass's fresh ones. */
export type SumTable = 'ledger_check_accounts' | 'ledger_check_full_sums';

/** The stored state row (ledger_check_state), numbers as JS numbers (ids and counts stay below 2^53). */
export interface CheckState {
  verifiedThrough: number;
  checkpointId: number | null;
  checkpointAt: Date | null;
  problems: string[];
  accounts: number;
  entries: number;
  postings: number;
  lastIncrementalAt: Date | null;
  lastFullAt: Date | null;
  fullRequested: boolean;
  fullThrough: number | null;
  fullPosition: number | null;
  fullStartedAt: Date | null;
  fullProblems: string[];
  fullEntries: number;
  fullPostings: number;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

/** Reads the state row; `lock` takes it FOR UPDATE (a pass's writes stay one at a time). */
export async function readCheckState(db: DbOrTx, lock = false): Promise<CheckState> {
  const r = await sql<Record<string, unknown>>`select * from ledger_check_state where id = 1
    ${lock ? sql`for update` : sql``}`.execute(db);
  const x = r.rows[0];
  if (!x) throw new Error('ledger_check_state has no row (migration 031)');
  return {
    verifiedThrough: Number(x.verified_through),
    checkpointId: num(x.checkpoint_id),
    checkpointAt: date(x.checkpoint_at),
    problems: x.problems as string[],
    accounts: Number(x.accounts),
    entries: Number(x.entries),
    postings: Number(x.postings),
    lastIncrementalAt: date(x.last_incremental_at),
    lastFullAt: date(x.last_full_at),
    fullRequested: Boolean(x.full_requested),
    fullThrough: num(x.full_through),
    fullPosition: num(x.full_position),
    fullStartedAt: date(x.full_started_at),
    fullProblems: x.full_problems as string[],
    fullEntries: Number(x.full_entries),
    fullPostings: Number(x.full_postings),
  };
}

/** Updates columns of the state row (snake_case names, values as given). */
export async function writeCheckState(db: DbOrTx, set: Record<string, unknown>): Promise<void> {
  const cols = Object.entries(set).map(([k, v]) =>
    Array.isArray(v) ? sql`${sql.ref(k)} = ${JSON.stringify(v)}::jsonb` : sql`${sql.ref(k)} = ${v}`,
  );
  if (cols.length === 0) return;
  await sql`update ledger_check_state set ${sql.join(cols)} where id = 1`.execute(db);
}

/** The newest posting id (an index's last entry) and the database's clock. */
export async function newestPosting(db: DbOrTx): Promise<{ id: number; now: Date }> {
  const r = await sql<{ id: string | null; now: string }>`
    select (select max(id) from ledger_postings)::text as id, now() as now`.execute(db);
  return { id: Number(r.rows[0]?.id ?? 0), now: new Date(r.rows[0]?.now ?? Date.now()) };
}

/** Entries with a posting in (lo, hi] whose postings do not sum to zero per coin (up to 100). */
export async function unbalancedEntries(db: DbOrTx, lo: number, hi: number): Promise<string[]> {
  const r = await sql<{ entry_id: string; coin: string; total: string }>`
    with e as (select distinct entry_id from ledger_postings where id > ${lo} and id <= ${hi})
    select p.entry_id::text as entry_id, p.coin, sum(p.amount)::text as total
    from ledger_postings p join e on e.entry_id = p.entry_id
    group by p.entry_id, p.coin having sum(p.amount) <> 0 order by p.entry_id limit 100`.execute(db);
  return r.rows.map((x) => `entry ${x.entry_id}: ${x.coin} postings sum to ${x.total}`);
}

/** Postings in (lo, hi] whose coin is not their account's (up to 100). */
export async function mismatchedCoins(db: DbOrTx, lo: number, hi: number): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select p.id::text as id from ledger_postings p join ledger_accounts a on a.id = p.account_id
    where p.id > ${lo} and p.id <= ${hi} and p.coin <> a.coin order by p.id limit 100`.execute(db);
  return r.rows.map((x) => `posting ${x.id}: coin differs from its account's`);
}

/**
 * Adds the postings in (lo, hi] to `table`'s per-account sums (marking them dirty) and answers how many postings
 * the range held and how many entries begin in it (no posting at or below `lo`).
 */
export async function sumChunk(
  db: DbOrTx,
  table: SumTable,
  lo: number,
  hi: number,
): Promise<{ postings: number; entries: number }> {
  const t = sql.table(table);
  await sql`insert into ${t} (account_id, posted, dirty)
    select account_id, sum(amount), true from ledger_postings where id > ${lo} and id <= ${hi}
    group by account_id
    on conflict (account_id) do update set posted = ${t}.posted + excluded.posted, dirty = true`.execute(db);
  const r = await sql<{ postings: string; entries: string }>`
    with c as (select entry_id, count(*) as n from ledger_postings where id > ${lo} and id <= ${hi}
               group by entry_id)
    select coalesce(sum(n), 0)::text as postings,
      count(*) filter (where not exists (select 1 from ledger_postings q
                                         where q.entry_id = c.entry_id and q.id <= ${lo}))::text as entries
    from c`.execute(db);
  return { postings: Number(r.rows[0]?.postings ?? 0), entries: Number(r.rows[0]?.entries ?? 0) };
}

/**
 * Accounts whose balance differs from their running sum through `through` plus their postings after it: only
 * the dirty ones (`onlyDirty`, the incremental pass) or every account (the full pass, sums from `table`).
 */
export async function driftedAccounts(
  db: DbOrTx,
  table: SumTable,
  through: number,
  onlyDirty: boolean,
): Promise<{ id: number; balance: string; expected: string }[]> {
  const t = sql.table(table);
  const r = await sql<{ id: string; balance: string; expected: string }>`
    with tail as (select account_id, sum(amount) as s from ledger_postings where id > ${through}
                  group by account_id)
    select a.id::text as id, a.balance::text as balance,
           (coalesce(c.posted, 0) + coalesce(tail.s, 0))::text as expected
    from ${onlyDirty ? sql`${t} c join ledger_accounts a on a.id = c.account_id` : sql`ledger_accounts a left join ${t} c on c.account_id = a.id`}
    left join tail on tail.account_id = a.id
    where ${onlyDirty ? sql`c.dirty and ` : sql``}a.balance <> coalesce(c.posted, 0) + coalesce(tail.s, 0)
    order by a.id limit 100`.execute(db);
  return r.rows.map((x) => ({ id: Number(x.id), balance: x.balance, expected: x.expected }));
}

/** Account `id`'s balance and the sum of all its postings, and of those through `through`, in one read. */
export async function accountSums(
  db: DbOrTx,
  id: number,
  through: number,
): Promise<{ balance: string; all: string; upTo: string; equal: boolean }> {
  const r = await sql<{ balance: string; all: string; up_to: string; equal: boolean }>`
    select a.balance::text as balance, coalesce(sum(p.amount), 0)::text as all,
           coalesce(sum(p.amount) filter (where p.id <= ${through}), 0)::text as up_to,
           a.balance = coalesce(sum(p.amount), 0) as equal
    from ledger_accounts a left join ledger_postings p on p.account_id = a.id
    where a.id = ${id} group by a.id, a.balance`.execute(db);
  const x = r.rows[0];
  return { balance: x?.balance ?? '0', all: x?.all ?? '0', upTo: x?.up_to ?? '0', equal: Boolean(x?.equal) };
}

/** Sets account `id`'s running sum (a posting the incremental pass met late is counted in). */
export async function setRunningSum(db: DbOrTx, id: number, posted: string): Promise<void> {
  await sql`update ledger_check_accounts set posted = ${posted}::numeric where account_id = ${id}`.execute(
    db,
  );
}

/** How many cleared marks make the table's statistics stale enough to refresh them at once. */
const ANALYZE_AFTER_CLEARED = 10_000;

/**
 * Clears the dirty marks after a comparison. After a first pass or a rebuild (every account dirty) the planner's
 * statistics still say "all dirty" until autovacuum analyzes the table, and the next ticks would scan every
 * account instead of reading the partial index of the dirty ones; so a large clear analyzes the table itself.
 */
export async function clearDirty(db: DbOrTx): Promise<void> {
  const r = await sql`update ledger_check_accounts set dirty = false where dirty`.execute(db);
  if (Number(r.numAffectedRows ?? 0n) >= ANALYZE_AFTER_CLEARED)
    await sql`analyze ledger_check_accounts`.execute(db);
}

/** Whole-ledger findings the full pass adds: per-coin totals not zero, negative member accounts. */
export async function accountWideProblems(db: DbOrTx): Promise<{ problems: string[]; accounts: number }> {
  const sums = await sql<{ coin: string; total: string }>`
    select coin, sum(balance)::text as total from ledger_accounts group by coin having sum(balance) <> 0
    order by coin`.execute(db);
  const neg = await sql<{ id: string; balance: string }>`
    select id::text as id, balance::text as balance from ledger_accounts
    where member_id is not null and balance < 0 order by id limit 100`.execute(db);
  const n = await sql<{ n: string }>`select count(*)::text as n from ledger_accounts`.execute(db);
  return {
    problems: [
      ...sums.rows.map((r) => `coin ${r.coin}: balances sum to ${r.total}, not 0`),
      ...neg.rows.map((r) => `account ${r.id}: member balance negative (${r.balance})`),
    ],
    accounts: Number(n.rows[0]?.n ?? 0),
  };
}

/** Empties the full pass's sums (a new pass begins). */
export async function clearFullSums(db: DbOrTx): Promise<void> {
  await sql`delete from ledger_check_full_sums`.execute(db);
}

/** The full pass's sums become the running sums (its end); the full pass's table is emptied. */
export async function adoptFullSums(db: DbOrTx): Promise<void> {
  await sql`delete from ledger_check_accounts`.execute(db);
  await sql`insert into ledger_check_accounts (account_id, posted, dirty)
    select account_id, posted, false from ledger_check_full_sums`.execute(db);
  await sql`delete from ledger_check_full_sums`.execute(db);
}

/** Records a finished pass and keeps the newest 200. */
export async function recordRun(
  db: DbOrTx,
  run: {
    kind: 'INCREMENTAL' | 'FULL';
    problems: string[];
    from: number;
    through: number;
    postings: number;
    startedAt: Date;
  },
): Promise<void> {
  await sql`insert into ledger_check_runs (kind, ok, problems, from_posting, through_posting, postings, started_at)
    values (${run.kind}, ${run.problems.length === 0}, ${JSON.stringify(run.problems)}::jsonb, ${run.from},
            ${run.through}, ${run.postings}, ${run.startedAt})`.execute(db);
  await sql`delete from ledger_check_runs where id <= (select max(id) - 200 from ledger_check_runs)`.execute(
    db,
  );
}
