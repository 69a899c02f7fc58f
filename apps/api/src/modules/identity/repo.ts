import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';

/**
 * The SQL of the identity module's tables (`members`, `sms_codes`, sessions) that other modules need:
 * the orders module locks a buyer, the ops module suspends members and creates operators, the demo seed its members, through these.
 * Other modules never write `members` themselves.
 */

/**
 * Locks a member's row (SELECT ... FOR NO KEY UPDATE, so foreign keys to it stay free) for the caller's
 * transaction and returns their current phone (E.164). Used by a purchase to count one buyer's concurrent
 * orders one after the other (DECISIONS §11). The status is read under the lock: a membership closed (or
 * suspended) while the request was on its way ends it here, UNAUTHORIZED (closed: its sessions are gone) or
 * MEMBER_SUSPENDED, so closing and a purchase have one winner (DECISIONS §19). Throws when the member does not exist.
 */
export async function lockMemberForTrade(tx: Tx, memberId: number): Promise<{ phoneE164: string }> {
  const m = await tx
    .selectFrom('members')
    .select(['phone_e164', 'status'])
    .where('id', '=', memberId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  if (m.status === 'CLOSED') throw new AppError('UNAUTHORIZED');
  if (m.status === 'SUSPENDED') throw new AppError('MEMBER_SUSPENDED');
  return { phoneE164: m.phone_e164 };
}

/** The member columns the operator console shows (DECISIONS §8). */
export const OPS_MEMBER_COLUMNS = [
  'id',
  'login_id',
  'nickname',
  'name',
  'country_code',
  'phone_e164',
  'role',
  'status',
  'suspended_reason',
  'created_at',
] as const;

/** A member as the operator console reads it (OPS_MEMBER_COLUMNS). */
export type OpsMemberRow = {
  id: number;
  login_id: string;
  nickname: string;
  name: string;
  country_code: string;
  phone_e164: string;
  role: 'MEMBER' | 'OPERATOR';
  status: 'ACTIVE' | 'SUSPENDED' | 'CLOSED';
  suspended_reason: string | null;
  created_at: Date;
};

/** A member's row (OPS_MEMBER_COLUMNS) under SELECT ... FOR UPDATE, or undefined. */
export async function lockMemberRow(tx: Tx, memberId: number): Promise<OpsMemberRow | undefined> {
  return tx
    .selectFrom('members')
    .select(OPS_MEMBER_COLUMNS)
    .where('id', '=', memberId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Sets a locked member's status (DECISIONS §8): SUSPENDED with the operator's `reason`, or ACTIVE with the
 * reason cleared. Returns the updated row. The guards read the status on every request.
 */
export async function setMemberStatus(
  tx: Tx,
  memberId: number,
  status: 'ACTIVE' | 'SUSPENDED',
  reason: string | null,
): Promise<OpsMemberRow> {
  return tx
    .updateTable('members')
    .set({ status, suspended_reason: reason, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .returning(OPS_MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A member by login id, case-insensitive (id, login id as stored, role), or undefined. */
export async function memberByLoginId(db: DbOrTx, loginId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'login_id', 'role'])
    .where((eb) => eb(eb.fn('lower', ['login_id']), '=', loginId.toLowerCase()))
    .executeTakeFirst();
}

/**
 * Inserts a member of `role` (MEMBER for the demo seed, OPERATOR for start-up and the CLI, DECISIONS §8) with
 * an argon2id `passwordHash`, country 82 and optional bank details; returns its id. Unique violations
 * (`members_login_id_key`, `members_nickname_key`) are thrown as they are. Sign-up has its own path
 * (members.ts) with its checks.
 */
export async function insertMember(
  db: DbOrTx,
  m: {
    loginId: string;
    nickname: string;
    name: string;
    phoneE164: string;
    passwordHash: string;
    role: 'MEMBER' | 'OPERATOR';
    bankName?: string | null;
    accountNo?: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('members')
    .values({
      login_id: m.loginId,
      nickname: m.nickname,
      name: m.name,
      country_code: '82',
      phone_e164: m.phoneE164,
      password_hash: m.passwordHash,
      bank_name: m.bankName ?? null,
      account_no: m.accountNo ?? null,
      role: m.role,
      suspended_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A member's login id as stored; throws when the member does not exist (the TOTP app's label, DECISIONS §13). */
export async function loginIdOf(db: DbOrTx, memberId: number): Promise<string> {
  const m = await db
    .selectFrom('members')
    .select('login_id')
    .where('id', '=', memberId)
    .executeTakeFirstOrThrow();
  return m.login_id;
}

/** True when the database holds any member (start-up seeds the demo data only into an empty one). */
export async function anyMemberExists(db: DbOrTx): Promise<boolean> {
  const any = await db.selectFrom('members').select('id').limit(1).executeTakeFirst();
  return any !== undefined;
}

/**
 * What the identity levels (DECISIONS §19, modules/kyc) read of a member: level, name, phone, role and status;
 * undefined when the member does not exist. With `lock`, the row is locked (FOR NO KEY UPDATE) for the
 * caller's transaction, so a level check and the move it guards see one level.
 */
export async function memberKycRow(db: DbOrTx, memberId: number, lock = false) {
  const q = db
    .selectFrom('members')
    .select(['kyc_level', 'name', 'phone_e164', 'role', 'status', 'created_at'])
    .where('id', '=', memberId);
  return (lock ? q.forNoKeyUpdate() : q).executeTakeFirst();
}

/**
 * Raises a member's identity level to `level` (never lowers it: a second approval or a late identity check
 * leaves level 2 alone). Returns the level now stored. Only the kyc module calls it, in the transaction that
 * records the evidence.
 */
export async function raiseKycLevel(tx: Tx, memberId: number, level: 0 | 1 | 2): Promise<number> {
  const r = await tx
    .updateTable('members')
    .set({ kyc_level: sql<number>`greatest(kyc_level, ${level}::smallint)`, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .returning('kyc_level')
    .executeTakeFirstOrThrow();
  return r.kyc_level;
}

/**
 * Writes a member's profile bank account (GET /my's bankName, accountNo) to the account the 1원 check just
 * proved (DECISIONS §19), so the sell form offers the verified one.
 */
export async function setProfileBankAccount(
  tx: Tx,
  memberId: number,
  bankName: string,
  accountNo: string,
): Promise<void> {
  await tx
    .updateTable('members')
    .set({ bank_name: bankName, account_no: accountNo, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .execute();
}
