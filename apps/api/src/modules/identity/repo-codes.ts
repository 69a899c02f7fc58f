import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The SQL of the identity module's `sms_codes` table (DECISIONS §6, §13): one row per code sent, holding only
 * its salted hash (the caller hashes), an expiry, a try counter and when it was verified. Each function takes
 * the database or the caller's transaction.
 */

/**
 * The purposes of a code: sign-up, a signed-in member's own phone (purchase check, step-up), a password
 * reset, and a signed-in member's new phone, which serves only the phone change (DECISIONS §21).
 */
export type CodePurpose = 'signup' | 'member' | 'reset' | 'phone_change';

/** Inserts a code row expiring `ttlSec` s from now; returns its id. */
export async function insertCode(
  db: DbOrTx,
  c: {
    phone: string;
    purpose: CodePurpose;
    codeHash: string;
    ttlSec: number;
    memberId: number | null;
    ip: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('sms_codes')
    .values({
      phone_e164: c.phone,
      purpose: c.purpose,
      code_hash: c.codeHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${c.ttlSec})`,
      member_id: c.memberId,
      ip: c.ip,
      verified_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes code row `id`. */
export async function deleteCode(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute();
}

/**
 * The newest code of `phone` and `purpose` (and of `memberId` when given): id, salted hash, tries, when
 * verified and whether it has expired; undefined when none.
 */
export async function newestCode(
  db: DbOrTx,
  o: { phone: string; purpose: CodePurpose; memberId?: number | undefined },
) {
  let q = db
    .selectFrom('sms_codes')
    .select(['id', 'code_hash', 'tries', 'verified_at', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('phone_e164', '=', o.phone)
    .where('purpose', '=', o.purpose);
  if (o.memberId !== undefined) q = q.where('member_id', '=', o.memberId);
  return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/**
 * Counts a wrong try of code `id`, atomically while it is unverified and under `maxTries`. Returns the tries
 * now counted, or undefined when no try was left (or it was verified meanwhile).
 */
export async function countWrongTry(db: DbOrTx, id: number, maxTries: number): Promise<number | undefined> {
  const bumped = await db
    .updateTable('sms_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('tries', '<', maxTries)
    .where('verified_at', 'is', null)
    .returning('tries')
    .executeTakeFirst();
  return bumped?.tries;
}

/**
 * Counts the right try of code `id` and marks it verified in one statement (same conditions as a wrong try;
 * verified only while unexpired). Returns {verified}, or undefined when no try was left.
 */
export async function markCodeVerified(
  db: DbOrTx,
  id: number,
  maxTries: number,
): Promise<{ verified: boolean } | undefined> {
  return db
    .updateTable('sms_codes')
    .set((eb) => ({
      tries: eb('tries', '+', 1),
      verified_at: sql<Date | null>`case when expires_at > now() then now() end`,
    }))
    .where('id', '=', id)
    .where('tries', '<', maxTries)
    .where('verified_at', 'is', null)
    .returning(sql<boolean>`verified_at is not null`.as('verified'))
    .executeTakeFirst();
}

/**
 * True when `phoneE164` had a code of `purpose` verified within the last `withinSec` seconds (of `memberId`
 * when given). DECISIONS §6, §13.
 */
export async function codeVerifiedWithin(
  db: DbOrTx,
  o: { phoneE164: string; purpose: CodePurpose; withinSec: number; memberId?: number | undefined },
): Promise<boolean> {
  let q = db
    .selectFrom('sms_codes')
    .select('id')
    .where('phone_e164', '=', o.phoneE164)
    .where('purpose', '=', o.purpose)
    .where('verified_at', '>', sql<Date>`now() - make_interval(secs => ${o.withinSec})`);
  if (o.memberId !== undefined) q = q.where('member_id', '=', o.memberId);
  const row = await q.limit(1).executeTakeFirst();
  return row !== undefined;
}
