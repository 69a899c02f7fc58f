import type { Tx } from '../../db/client.ts';

/**
 * The SQL that writes the audit module's table `audit_log` (DECISIONS §8); it takes the caller's transaction.
 * The console reads the log through operators/queries.ts `listAuditLog`.
 */

/** One audit_log row as written: the target id as text, `data` as JSON text or null. */
export interface AuditRow {
  operatorId: number;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  data: string | null;
}

/** Inserts one audit record in the caller's transaction (the action it describes commits with it). */
export async function insertAuditRow(tx: Tx, r: AuditRow): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      operator_id: r.operatorId,
      action: r.action,
      target_type: r.targetType,
      target_id: r.targetId,
      reason: r.reason,
      data: r.data,
    })
    .execute();
}
