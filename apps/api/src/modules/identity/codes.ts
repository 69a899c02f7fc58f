import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import {
  type CodePurpose,
  countWrongTry,
  deleteCode,
  insertCode,
  markCodeVerified,
  newestCode,
} from './repo-codes.ts';

export type { CodePurpose } from './repo-codes.ts';

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
  const id = await insertCode(db, {
    phone: o.phone,
    purpose: o.purpose,
    codeHash: hashCode(code),
    ttlSec: o.ttlSec,
    memberId: o.memberId,
    ip: o.ip,
  });
  return { id, code };
}

/** Removes a code that never reached the phone, so the one sent before it stays the newest. */
export async function discardCode(db: Db, id: number): Promise<void> {
  await deleteCode(db, id);
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
  const row = await newestCode(db, o);
  if (!row || row.verified_at !== null || row.expired) throw new AppError('CODE_EXPIRED');
  if (row.tries >= o.maxTries) throw new AppError('CODE_TRIES_EXCEEDED');

  if (!codeMatches(row.code_hash, o.code)) {
    const tries = await countWrongTry(db, row.id, o.maxTries);
    if (tries === undefined) throw new AppError('CODE_TRIES_EXCEEDED');
    throw new AppError('CODE_MISMATCH', { triesLeft: Math.max(0, o.maxTries - tries) });
  }
  // The right code: its try is counted and the code marked verified in one statement (the same conditions
  // as a wrong try, and verified only while it has not expired).
  const marked = await markCodeVerified(db, row.id, o.maxTries);
  if (!marked) throw new AppError('CODE_TRIES_EXCEEDED');
  if (!marked.verified) throw new AppError('CODE_EXPIRED');
}
