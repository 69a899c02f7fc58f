import type { OpsMember } from '@p2p/contract';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { audit } from '../audit/index.ts';
import {
  lockMemberRow,
  type OpsMemberRow,
  revokeAllRefreshTokens,
  setMemberStatus,
} from '../identity/index.ts';
import { toOpsMember } from './queries.ts';

type MemberRow = OpsMemberRow;

async function lockMember(tx: Tx, memberId: number): Promise<MemberRow> {
  const row = await lockMemberRow(tx, memberId);
  if (!row) throw new AppError('NOT_FOUND_MEMBER_ID');
  return row;
}

/**
 * Suspends a member (DECISIONS §8): status SUSPENDED with the reason, every live refresh token revoked
 * (so no new access token can be minted; the guards refuse the current one at once), and an audit record,
 * all in one transaction. Throws NOT_FOUND_MEMBER_ID, FORBIDDEN {rule: SELF_SUSPEND} when the operator
 * names themself, INVALID_STATE when already suspended or closed.
 */
export async function suspendMember(
  db: Db,
  operatorId: number,
  memberId: number,
  reason: string,
): Promise<OpsMember> {
  if (operatorId === memberId) throw new AppError('FORBIDDEN', { rule: 'SELF_SUSPEND' });
  return inTx(db, async (tx) => {
    const member = await lockMember(tx, memberId);
    // A closed membership (DECISIONS §19) is never suspended: unsuspending it later would reopen it.
    if (member.status !== 'ACTIVE') throw new AppError('INVALID_STATE', { status: member.status });
    const updated = await setMemberStatus(tx, memberId, 'SUSPENDED', reason);
    await revokeAllRefreshTokens(tx, memberId);
    await audit(tx, {
      operatorId,
      action: 'member.suspend',
      targetType: 'member',
      targetId: memberId,
      reason,
    });
    return toOpsMember(updated);
  });
}

/**
 * Lifts a suspension (DECISIONS §8) with an audit record in the same transaction. The member signs in
 * again (their refresh tokens stay revoked). Throws NOT_FOUND_MEMBER_ID, INVALID_STATE when not suspended.
 */
export async function unsuspendMember(
  db: Db,
  operatorId: number,
  memberId: number,
  reason: string | undefined,
): Promise<OpsMember> {
  return inTx(db, async (tx) => {
    const member = await lockMember(tx, memberId);
    if (member.status !== 'SUSPENDED') throw new AppError('INVALID_STATE', { status: member.status });
    const updated = await setMemberStatus(tx, memberId, 'ACTIVE', null);
    await audit(tx, {
      operatorId,
      action: 'member.unsuspend',
      targetType: 'member',
      targetId: memberId,
      reason: reason ?? null,
      data: { previousReason: member.suspended_reason },
    });
    return toOpsMember(updated);
  });
}
