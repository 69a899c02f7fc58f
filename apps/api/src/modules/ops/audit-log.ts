import type { OpsAuditEntry } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';

function asRecord(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string') {
    try {
      return asRecord(JSON.parse(v));
    } catch {
      return null;
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * GET /ops/api/v1/audit-log (DECISIONS §8): operator actions newest first (who, what, on which target,
 * why, when), in pages of `size` with an opaque keyset cursor on the id; optionally only those on one
 * target type / id. Throws VALIDATION_FAILED on a forged cursor.
 */
export async function listAuditLog(
  db: Db,
  o: { size: number; cursor?: string; targetType?: string; targetId?: string },
): Promise<{ list: OpsAuditEntry[]; nextCursor: string | null; totalCount: number }> {
  let page = db
    .selectFrom('audit_log as a')
    .innerJoin('members as m', 'm.id', 'a.operator_id')
    .select([
      'a.id',
      'a.operator_id',
      'm.login_id',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.reason',
      'a.data',
      'a.created_at',
    ]);
  let count = db.selectFrom('audit_log as a').select((eb) => eb.fn.countAll<number>().as('n'));
  if (o.targetType) {
    page = page.where('a.target_type', '=', o.targetType);
    count = count.where('a.target_type', '=', o.targetType);
  }
  if (o.targetId) {
    page = page.where('a.target_id', '=', o.targetId);
    count = count.where('a.target_id', '=', o.targetId);
  }
  if (o.cursor) page = page.where('a.id', '<', decodeIdCursor('audit-log', o.cursor));
  const rows = await page
    .orderBy('a.id', 'desc')
    .limit(o.size + 1)
    .execute();
  const total = await count.executeTakeFirstOrThrow();
  return toPage(
    rows,
    o.size,
    Number(total.n),
    (r): OpsAuditEntry => ({
      id: r.id,
      operatorId: r.operator_id,
      operatorLoginId: r.login_id,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      reason: r.reason,
      data: asRecord(r.data),
      createdAt: new Date(r.created_at).toISOString(),
    }),
    (r) => encodeIdCursor('audit-log', r.id),
  );
}
