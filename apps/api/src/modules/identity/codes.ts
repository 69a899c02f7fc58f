import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '@p2p/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';

export type CodePurpose = 'signup' | 'member' | 'reset';

/** sha256 of a secret (refresh tokens, reset tickets: high-entropy values need no salt). */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// A 6-digit code has little entropy, so each row gets its own salt: a copied table cannot be matched
// against one precomputed list. Codes also die after 120 s and 5 tries, which is the real protection.
function hashCode(code: string, salt = randomBytes(16).toString('hex')): string {
  return `${salt}$${sha256(`${salt}:${code}`)}`;
}

function codeMatches(stored: string, code: string): boolean {
  const [salt, digest] = stored.split('$');
  if (!salt || !digest) return false;
  const expected = Buffer.from(hashCode(code, salt));
  const actual = Buffer.from(stored);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Creates a fresh 6-digit code (crypto.randomInt) for `phone` and `purpose`, stores only its salted hash
 * with an expiry `ttlSec` ahead, and returns the row id and the plain code for the SMS provider. The newest
 * code of a phone and purpose (and, for 'member' codes, of the member who asked: DECISIONS §13) replaces the
 * older ones (only the newest is ever checked).
 */
export async function issueCode(
  db: Db,
  o: { phone: string; purpose: CodePurpose; ttlSec: number; memberId: number | null; ip: string | null },
): Promise<{ id: number; code: string }> {
  const code = String(randomInt(0, 10 ** LIMITS.smsCodeLength)).padStart(LIMITS.smsCodeLength, '0');
  const row = await db
    .insertInto('sms_codes')
    .values({
      phone_e164: o.phone,
      purpose: o.purpose,
      code_hash: hashCode(code),
      expires_at: sql<Date>`now() + make_interval(secs => ${o.ttlSec})`,
      member_id: o.memberId,
      ip: o.ip,
      verified_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code };
}

/** Removes a code that never reached the phone, so the one sent before it stays the newest. */
export async function discardCode(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute();
}

/**
 * Checks `code` against the newest code of `phone` and `purpose` (and of `memberId` when given) and marks it
 * verified. Each check uses one try, counted atomically so parallel guesses cannot exceed `maxTries`.
 * Throws CODE_EXPIRED (none, already used or past its expiry), CODE_TRIES_EXCEEDED, CODE_MISMATCH {triesLeft}.
 */
export async function verifyCode(
  db: Db,
  o: { phone: string; purpose: CodePurpose; code: string; maxTries: number; memberId?: number },
): Promise<void> {
  let q = db
    .selectFrom('sms_codes')
    .select(['id', 'code_hash', 'tries', 'verified_at', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('phone_e164', '=', o.phone)
    .where('purpose', '=', o.purpose);
  if (o.memberId !== undefined) q = q.where('member_id', '=', o.memberId);
  const row = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row || row.verified_at !== null || row.expired) throw new AppError('CODE_EXPIRED');
  if (row.tries >= o.maxTries) throw new AppError('CODE_TRIES_EXCEEDED');

  if (!codeMatches(row.code_hash, o.code)) {
    const bumped = await db
      .updateTable('sms_codes')
      .set((eb) => ({ tries: eb('tries', '+', 1) }))
      .where('id', '=', row.id)
      .where('tries', '<', o.maxTries)
      .where('verified_at', 'is', null)
      .returning('tries')
      .executeTakeFirst();
    if (!bumped) throw new AppError('CODE_TRIES_EXCEEDED');
    throw new AppError('CODE_MISMATCH', { triesLeft: Math.max(0, o.maxTries - bumped.tries) });
  }
  // The right code: its try is counted and the code marked verified in one statement (the same conditions
  // as a wrong try, and verified only while it has not expired).
  const marked = await db
    .updateTable('sms_codes')
    .set((eb) => ({
      tries: eb('tries', '+', 1),
      verified_at: sql<Date | null>`case when expires_at > now() then now() end`,
    }))
    .where('id', '=', row.id)
    .where('tries', '<', o.maxTries)
    .where('verified_at', 'is', null)
    .returning(sql<boolean>`verified_at is not null`.as('verified'))
    .executeTakeFirst();
  if (!marked) throw new AppError('CODE_TRIES_EXCEEDED');
  if (!marked.verified) throw new AppError('CODE_EXPIRED');
}
