import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/*
 * The records module's SQL: the job leases (023_records.sql). Lease times come from the database's clock, so
 * instances never compare clocks (as the deposit watchers' leases, deposits/repo.ts).
 */

/**
 * Takes or renews the lease of job `name` for `holder` for `leaseMs`: granted when nobody holds it, the
 * holder's lease ran out (a crashed instance) or `holder` holds it already. True when `holder` has it.
 */
export async function acquireJobLease(
  db: DbOrTx,
  name: string,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const r = await sql<{ holder: string }>`insert into job_leases (name, holder, lease_until)
      values (${name}, ${holder}, now() + make_interval(secs => ${leaseMs / 1000}))
      on conflict (name) do update set holder = excluded.holder, lease_until = excluded.lease_until,
        updated_at = now()
      where job_leases.holder = excluded.holder
        or job_leases.lease_until is null or job_leases.lease_until < now()
      returning holder`.execute(db);
  return r.rows[0]?.holder === holder;
}

/** Records a finished run of job `name` by `holder` (what the operations docs tell to look at). */
export async function markJobRun(db: DbOrTx, name: string, holder: string): Promise<void> {
  await sql`update job_leases set last_run_at = now(), updated_at = now()
      where name = ${name} and holder = ${holder}`.execute(db);
}

/** Gives the lease up (a clean shutdown): another instance takes it at its next tick. */
export async function releaseJobLease(db: DbOrTx, name: string, holder: string): Promise<void> {
  await sql`update job_leases set holder = null, lease_until = null, updated_at = now()
      where name = ${name} and holder = ${holder}`.execute(db);
}
