import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type TsOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A lease of a job that one instance of all runs at a time (023_records.sql): the retention purge. */
export interface JobLeasesTable {
  name: string;
  holder: string | null;
  lease_until: TsOrNull;
  last_run_at: TsOrNull;
  updated_at: CreatedAt;
}

/** Tables of the records module. */
export interface RecordsTables {
  job_leases: JobLeasesTable;
}
