import type { Tx } from '../../db/client.ts';

/**
 * The SQL of the identity module's tables (`members`, `sms_codes`, sessions) that other modules need.
 * Other modules lock or read a member only through these functions.
 */

/**
 * Locks a member's row (SELECT ... FOR NO KEY UPDATE, so foreign keys to it stay free) for the caller's
 * transaction and returns their current phone (E.164). Used by a purchase to count one buyer's concurrent
 * orders one after the other (DECISIONS §11). Throws when the member does not exist.
 */
export async function lockMemberForTrade(tx: Tx, memberId: number): Promise<{ phoneE164: string }> {
  const m = await tx
    .selectFrom('members')
    .select('phone_e164')
    .where('id', '=', memberId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  return { phoneE164: m.phone_e164 };
}
