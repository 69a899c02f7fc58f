import { randomBytes } from 'node:crypto';
import { LIMITS, maskPhone, type ResetTicketOut } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { sha256, verifyCode } from './codes.ts';
import { hashPassword } from './password.ts';
import { sameStoredPhone } from './phone-match.ts';
import { resettableMember, setMemberPassword } from './repo-members.ts';
import { insertResetTicket, useResetTicket } from './repo-sessions.ts';
import { revokeAllRefreshTokens } from './session.ts';

// Operators are never reset by SMS (DECISIONS §13: they have TOTP and a CLI): to these calls they do not exist.
async function memberByLoginId(db: Db, loginId: string) {
  const m = await resettableMember(db, loginId);
  if (!m) throw new AppError('NOT_FOUND_MEMBER_ID');
  return m;
}

/** POST /api/v1/auth/find-phone {id}: the member's phone, masked (DECISIONS §6). Throws NOT_FOUND_MEMBER_ID. */
export async function findPhone(db: Db, loginId: string): Promise<{ phone: string }> {
  const m = await memberByLoginId(db, loginId);
  return { phone: maskPhone(m.phone_e164) };
}

/**
 * POST /api/v1/auth/verify-reset-password {id, code, phone?}: checks the newest 'reset' code sent to the
 * member's stored phone and returns a single-use reset ticket valid 10 minutes, stored hashed. A `phone`
 * that does not name the stored phone (full or masked) fails exactly like a wrong code and uses one of the
 * code's tries (DECISIONS §13): the answer never tells a right phone from a wrong one, so the masked phone
 * cannot be completed by guessing. Throws NOT_FOUND_MEMBER_ID, CODE_EXPIRED, CODE_MISMATCH {triesLeft},
 * CODE_TRIES_EXCEEDED.
 */
export async function verifyReset(
  db: Db,
  body: { id: string; code: string; phone?: string | undefined },
  maxTries: number,
): Promise<ResetTicketOut> {
  const m = await memberByLoginId(db, body.id);
  const phoneNamed = !body.phone || sameStoredPhone(body.phone, m.phone_e164);
  await verifyCode(db, {
    phone: m.phone_e164,
    purpose: 'reset',
    // No code hashes to '', so a wrong phone takes the wrong-code path, try counting included.
    code: phoneNamed ? body.code : '',
    maxTries,
    memberId: m.id,
  });
  const resetTicket = randomBytes(32).toString('base64url');
  const expiresInSec = LIMITS.resetTicketTtlSec;
  await insertResetTicket(db, { memberId: m.id, ticketHash: sha256(resetTicket), ttlSec: expiresInSec });
  return { resetTicket, expiresInSec };
}

/**
 * POST /api/v1/auth/reset-password {resetTicket, newPassword}: uses the ticket once, sets the new password
 * and revokes every refresh token of the member. Throws RESET_TICKET_INVALID (unknown, used or expired).
 */
export async function resetPassword(
  db: Db,
  body: { resetTicket: string; newPassword: string },
): Promise<void> {
  const passwordHash = await hashPassword(body.newPassword);
  await inTx(db, async (tx) => {
    const memberId = await useResetTicket(tx, sha256(body.resetTicket));
    if (memberId === undefined) throw new AppError('RESET_TICKET_INVALID');
    await setMemberPassword(tx, memberId, passwordHash);
    await revokeAllRefreshTokens(tx, memberId);
  });
}
