import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/*
 * The SQL of `operator_totp` (DECISIONS §13, 006_operator_totp.sql): an operator's second factor at sign-in,
 * the secret stored sealed (totp-crypto.ts). The console's enrollment and the CLI reset (operators module)
 * call these through the module's index.
 */

/** An operator's TOTP row (sealed secret, when confirmed, last accepted 30 s step) under FOR UPDATE, or undefined. */
export async function lockTotpRow(tx: DbOrTx, memberId: number) {
  return tx
    .selectFrom('operator_totp')
    .select(['secret_enc', 'confirmed_at', 'last_time_step'])
    .where('member_id', '=', memberId)
    .forUpdate()
    .executeTakeFirst();
}

/** An operator's TOTP row's confirmation time (null while pending), or undefined when there is none. */
export async function totpConfirmation(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('operator_totp')
    .select('confirmed_at')
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

/** True when the operator has a confirmed TOTP (sign-in then asks for a code). */
export async function hasConfirmedTotp(db: DbOrTx, memberId: number): Promise<boolean> {
  const on = await db
    .selectFrom('operator_totp')
    .select('member_id')
    .where('member_id', '=', memberId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return on !== undefined;
}

/** Stores a new pending (unconfirmed) sealed secret, replacing any pending one (enrolled now). */
export async function upsertPendingTotp(tx: Tx, memberId: number, sealed: string): Promise<void> {
  await tx
    .insertInto('operator_totp')
    .values({ member_id: memberId, secret_enc: sealed, confirmed_at: null, last_time_step: null })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({
        secret_enc: sealed,
        enrolled_at: sql<Date>`now()`,
        confirmed_at: null,
        last_time_step: null,
      }),
    )
    .execute();
}

/** Confirms the operator's TOTP now, remembering the accepted 30 s `step` (a code is used once). */
export async function confirmTotpRow(tx: Tx, memberId: number, step: number): Promise<void> {
  await tx
    .updateTable('operator_totp')
    .set({ confirmed_at: sql<Date>`now()`, last_time_step: step })
    .where('member_id', '=', memberId)
    .execute();
}

/** Remembers the last accepted 30 s `step` of the operator's TOTP. */
export async function setTotpLastStep(tx: Tx, memberId: number, step: number): Promise<void> {
  await tx
    .updateTable('operator_totp')
    .set({ last_time_step: step })
    .where('member_id', '=', memberId)
    .execute();
}

/** Deletes the operator's TOTP row; true when there was one. */
export async function deleteTotp(tx: Tx, memberId: number): Promise<boolean> {
  const gone = await tx.deleteFrom('operator_totp').where('member_id', '=', memberId).executeTakeFirst();
  return gone.numDeletedRows !== 0n;
}
