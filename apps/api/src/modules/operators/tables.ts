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

/** An operator's TOTP second factor (006_operator_totp.sql, DECISIONS §13). */
export interface OperatorTotpTable {
  member_id: number;
  /** AES-256-GCM sealed base32 secret (totp-crypto.ts), never the plain secret. */
  secret_enc: string;
  enrolled_at: CreatedAt;
  confirmed_at: Date | null;
  /** The newest accepted 30-second time step (replay guard); null until a code was accepted. */
  last_time_step: number | null;
}

/** Tables of the ops module (005_ops.sql, 006_operator_totp.sql). */
export interface OpsTables {
  audit_log: AuditLogTable;
  operator_totp: OperatorTotpTable;
}
