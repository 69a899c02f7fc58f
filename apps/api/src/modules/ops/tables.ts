import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

export interface AuditLogTable {
  id: Generated<number>;
  operator_id: number;
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  data: ColumnType<unknown, string | null, string | null>;
  created_at: CreatedAt;
}

/** Tables of the ops module (005_ops.sql). */
export interface OpsTables {
  audit_log: AuditLogTable;
}
