import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * True when `phoneE164` had a code verified for `purpose` within the last `withinSec` seconds
 * (DECISIONS §6: signup needs 10 minutes; a buy order needs the member's phone verified in the last 5).
 * purpose 'member' = a signed-in member verifying a phone (purchase /verify, modify); `memberId` then binds the
 * check to the member who requested and verified the code (DECISIONS §13), so one member's verification
 * never counts for another.
 */
export async function phoneVerifiedWithin(
  db: DbOrTx,
  phoneE164: string,
  purpose: 'member',
  withinSec: number,
  memberId: number,
): Promise<boolean>;
export async function phoneVerifiedWithin(
  db: DbOrTx,
  phoneE164: string,
  purpose: 'signup' | 'reset',
  withinSec: number,
): Promise<boolean>;
export async function phoneVerifiedWithin(
  db: DbOrTx,
  phoneE164: string,
  purpose: 'signup' | 'member' | 'reset',
  withinSec: number,
  memberId?: number,
): Promise<boolean> {
  let q = db
    .selectFrom('sms_codes')
    .select('id')
    .where('phone_e164', '=', phoneE164)
    .where('purpose', '=', purpose)
    .where('verified_at', '>', sql<Date>`now() - make_interval(secs => ${withinSec})`);
  if (memberId !== undefined) q = q.where('member_id', '=', memberId);
  const row = await q.limit(1).executeTakeFirst();
  return row !== undefined;
}
