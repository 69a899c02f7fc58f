import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/** A new 1원 request; older open ones of the member are closed first (only the newest code counts). */
export async function insertVerification(
  tx: Tx,
  v: {
    memberId: number;
    bankName: string;
    accountNo: string;
    codeHash: string;
    holderName: string;
    expiresAt: Date;
  },
) {
  await tx
    .updateTable('bank_verifications')
    .set({ used_at: sql<Date>`now()` })
    .where('member_id', '=', v.memberId)
    .where('used_at', 'is', null)
    .execute();
  return tx
    .insertInto('bank_verifications')
    .values({
      member_id: v.memberId,
      bank_name: v.bankName,
      account_no: v.accountNo,
      code_hash: v.codeHash,
      holder_name: v.holderName,
      expires_at: v.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The member's newest unused 1원 request, locked for the code check, or undefined. */
export async function lockOpenVerification(tx: Tx, memberId: number) {
  return tx
    .selectFrom('bank_verifications')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The member's newest unused 1원 request (the state view), or undefined. */
export async function openVerification(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('bank_verifications')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts one wrong code. */
export async function addTry(tx: Tx, id: number): Promise<void> {
  await tx
    .updateTable('bank_verifications')
    .set({ tries: sql<number>`tries + 1` })
    .where('id', '=', id)
    .execute();
}

/** Closes a request (right code, or its tries are spent). */
export async function closeVerification(tx: Tx, id: number): Promise<void> {
  await tx
    .updateTable('bank_verifications')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** Saves (or replaces) the member's verified account. */
export async function upsertBankAccount(
  tx: DbOrTx,
  a: { memberId: number; bankName: string; accountNo: string; holderName: string },
) {
  return tx
    .insertInto('bank_accounts')
    .values({
      member_id: a.memberId,
      bank_name: a.bankName,
      account_no: a.accountNo,
      holder_name: a.holderName,
    })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({
        bank_name: a.bankName,
        account_no: a.accountNo,
        holder_name: a.holderName,
        verified_at: sql<Date>`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The member's verified account, or undefined. */
export async function bankAccountOf(db: DbOrTx, memberId: number) {
  return db.selectFrom('bank_accounts').selectAll().where('member_id', '=', memberId).executeTakeFirst();
}

/** Saves a verified account unless the member has one (the demo seed: never overwrites a member's own check). */
export async function insertBankAccountIfAbsent(
  db: DbOrTx,
  a: { memberId: number; bankName: string; accountNo: string; holderName: string },
): Promise<void> {
  await db
    .insertInto('bank_accounts')
    .values({
      member_id: a.memberId,
      bank_name: a.bankName,
      account_no: a.accountNo,
      holder_name: a.holderName,
    })
    .onConflict((oc) => oc.column('member_id').doNothing())
    .execute();
}

/** The retention purge of a closed member (DECISIONS §19): their verified account and 1원 checks deleted. */
export async function purgeBankOf(tx: Tx, memberId: number): Promise<void> {
  await tx.deleteFrom('bank_accounts').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('bank_verifications').where('member_id', '=', memberId).execute();
}
