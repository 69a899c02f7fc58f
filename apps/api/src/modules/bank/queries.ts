import type { DbOrTx } from '../../db/client.ts';

/**
 * The member's verified name (DECISIONS §19). Until identity verification (the kyc module's `verifiedNameOf`)
 * is merged, the name the member signed up with stands for it; a read of identity's `members` table, to be
 * replaced by that export. Undefined when the member does not exist.
 */
export async function verifiedNameOf(db: DbOrTx, memberId: number): Promise<string | undefined> {
  const row = await db.selectFrom('members').select('name').where('id', '=', memberId).executeTakeFirst();
  return row?.name;
}
