import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * True when `phoneE164` had a code verified for `purpose` within the last `withinSec` seconds
 * (DECISIONS §6: signup needs 10 minutes; a buy order needs the member's phone verified in the last 5).
 * purpose 'member' = a signed-in member verifying their own phone (purchase /verify, modify).
 */
export async function phoneVerifiedWithin(
  db: DbOrTx,
  phoneE164: string,
  purpose: 'signup' | 'member' | 'reset',
  withinSec: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('sms_codes')
    .select('id')
    .where('phone_e164', '=', phoneE164)
    .where('purpose', '=', purpose)
    .where('verified_at', '>', sql<Date>`now() - make_interval(secs => ${withinSec})`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
