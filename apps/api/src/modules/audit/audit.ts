import type { Tx } from '../../db/client.ts';
import { insertAuditRow } from './repo.ts';

export interface AuditRecord {
  operatorId: number;
  /** e.g. listing.approve, withdrawal.complete, member.suspend */
  action: string;
  targetType:
    | 'listing'
    | 'order'
    | 'withdrawal'
    | 'deposit'
    | 'member'
    | 'chain_payment'
    | 'kyc_document'
    | 'reserves';
  targetId: string | number;
  reason?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Writes one audit record inside the transaction of the operator action it describes (DECISIONS §8,
 * DESIGN habit 3: a state change and its audit record commit together or not at all).
 */
export async function audit(tx: Tx, r: AuditRecord): Promise<void> {
  await insertAuditRow(tx, {
    operatorId: r.operatorId,
    action: r.action,
    targetType: r.targetType,
    targetId: String(r.targetId),
    reason: r.reason ?? null,
    data: r.data ? JSON.stringify(r.data) : null,
  });
}
