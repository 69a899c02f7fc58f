import type { DbOrTx } from '../../db/client.ts';
import { codeVerifiedWithin } from './repo-codes.ts';

/**
 * True when `phoneE164` had a code verified for `purpose` within the last `withinSec` seconds
 * (DECISIONS §6: signup needs 10 minutes; a buy order needs the member's phone verified in the last 5).
 * purpose 'member' = a signed-in member verifying their own phone (purchase /verify), 'phone_change' = a
 * signed-in member verifying the phone they move to (modify, DECISIONS §21); `memberId` then binds the check
 * to the member who requested and verified the code (DECISIONS §13), so one member's verification never
 * counts for another.
 */
export async function phoneVerifiedWithin(
  db: DbOrTx,
  phoneE164: string,
  purpose: 'member' | 'phone_change',
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
  purpose: 'signup' | 'member' | 'reset' | 'phone_change',
  withinSec: number,
  memberId?: number,
): Promise<boolean> {
  return codeVerifiedWithin(db, { phoneE164, purpose, withinSec, memberId });
}
