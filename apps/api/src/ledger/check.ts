import { sql } from 'kysely';
import type { DbOrTx } from '../db/client.ts';

/** A further invariant contributed by a module (e.g. escrow equals what listings and orders hold). */
export type Invariant = (db: DbOrTx) => Promise<string[]>;

export interface LedgerCheckResult {
  ok: boolean;
  problems: string[];
  checkedAt: string;
  counts: { accounts: number; entries: number; postings: number };
}

/**
 * Runs the ledger invariants of DECISIONS §4 and returns every violation found (empty = clean):
 * per coin all balances sum to zero; every entry sums to zero per coin; each account's balance equals
 * the sum of its postings; no member account is negative; plus the module invariants passed in.
 */
export async function checkLedger(db: DbOrTx, extra: Invariant[] = []): Promise<LedgerCheckResult> {
  const problems: string[] = [];
  const coinSums = await sql<{ coin: string; total: string }>`
    select coin, sum(balance)::text as total from ledger_accounts group by coin having sum(balance) <> 0`.execute(
    db,
  );
  for (const r of coinSums.rows) problems.push(`coin ${r.coin}: balances sum to ${r.total}, not 0`);

  const entrySums = await sql<{ entry_id: number; coin: string; total: string }>`
    select entry_id, coin, sum(amount)::text as total from ledger_postings
    group by entry_id, coin having sum(amount) <> 0 limit 100`.execute(db);
  for (const r of entrySums.rows) problems.push(`entry ${r.entry_id}: ${r.coin} postings sum to ${r.total}`);

  const drift = await sql<{ id: number; balance: string; posted: string }>`
    select a.id, a.balance::text as balance, coalesce(sum(p.amount), 0)::text as posted
    from ledger_accounts a left join ledger_postings p on p.account_id = a.id
    group by a.id, a.balance having a.balance <> coalesce(sum(p.amount), 0) limit 100`.execute(db);
  for (const r of drift.rows)
    problems.push(`account ${r.id}: balance ${r.balance} but postings sum to ${r.posted}`);

  const negative = await sql<{ id: number; balance: string }>`
    select id, balance::text as balance from ledger_accounts
    where member_id is not null and balance < 0 limit 100`.execute(db);
  for (const r of negative.rows) problems.push(`account ${r.id}: member balance negative (${r.balance})`);

  const postingCoin = await sql<{ id: number }>`
    select p.id from ledger_postings p join ledger_accounts a on a.id = p.account_id
    where p.coin <> a.coin limit 100`.execute(db);
  for (const r of postingCoin.rows) problems.push(`posting ${r.id}: coin differs from its account's`);

  for (const inv of extra) problems.push(...(await inv(db)));

  const counts = await sql<{ accounts: number; entries: number; postings: number }>`
    select (select count(*) from ledger_accounts)::int as accounts,
           (select count(*) from ledger_entries)::int as entries,
           (select count(*) from ledger_postings)::int as postings`.execute(db);
  return {
    ok: problems.length === 0,
    problems,
    checkedAt: new Date().toISOString(),
    counts: counts.rows[0] ?? { accounts: 0, entries: 0, postings: 0 },
  };
}
