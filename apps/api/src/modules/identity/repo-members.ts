import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The identity module's own flows (sign-up, login, profile, step-up, reset): the member rows they read and
 * write. Login ids and nicknames are compared lower-cased, like the unique indexes (002_identity.sql).
 */

/** The login's view of a member by login id (`loginIdLower` already lower-cased), or undefined. */
export async function memberForLogin(db: DbOrTx, loginIdLower: string) {
  return db
    .selectFrom('members')
    .select(['id', 'role', 'status', 'password_hash'])
    .where(sql<string>`lower(login_id)`, '=', loginIdLower)
    .executeTakeFirst();
}

/** A member's role; throws when the member does not exist. */
export async function memberRole(db: DbOrTx, memberId: number): Promise<'MEMBER' | 'OPERATOR'> {
  const m = await db
    .selectFrom('members')
    .select('role')
    .where('id', '=', memberId)
    .executeTakeFirstOrThrow();
  return m.role;
}

/**
 * A MEMBER (never an operator: DECISIONS §13, operators are not reset by SMS) by login id, case-insensitive:
 * id and stored phone (E.164), or undefined.
 */
export async function resettableMember(db: DbOrTx, loginId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'phone_e164'])
    .where(sql<string>`lower(login_id)`, '=', loginId.toLowerCase())
    .where('role', '=', 'MEMBER')
    .executeTakeFirst();
}

/**
 * True when an open MEMBER already uses `phoneE164` (sign-up codes are refused for it, DECISIONS §6); a closed
 * membership's phone is free again (DECISIONS §19, the unique index of 023_records.sql).
 */
export async function phoneUsedByMember(db: DbOrTx, phoneE164: string): Promise<boolean> {
  const owner = await db
    .selectFrom('members')
    .select('id')
    .where('phone_e164', '=', phoneE164)
    .where('role', '=', 'MEMBER')
    .where('status', '<>', 'CLOSED')
    .executeTakeFirst();
  return owner !== undefined;
}

/** Sets a MEMBER's password hash (argon2id) after a reset; an operator's row is left alone. */
export async function setMemberPassword(db: DbOrTx, memberId: number, passwordHash: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .where('role', '=', 'MEMBER')
    .execute();
}

/**
 * Inserts a signed-up member (SPEC §5, DECISIONS §6) with an argon2id `passwordHash`; returns id, login id and
 * nickname. Unique violations (`members_login_id_key`, `members_nickname_key`, `members_phone_key`) are thrown
 * as they are, for the caller to map.
 */
export async function insertSignupMember(
  db: DbOrTx,
  m: {
    loginId: string;
    nickname: string;
    name: string;
    countryCode: string;
    phoneE164: string;
    passwordHash: string;
  },
) {
  return db
    .insertInto('members')
    .values({
      login_id: m.loginId,
      nickname: m.nickname,
      name: m.name,
      country_code: m.countryCode,
      phone_e164: m.phoneE164,
      password_hash: m.passwordHash,
      bank_name: null,
      account_no: null,
      suspended_reason: null,
    })
    .returning(['id', 'login_id', 'nickname'])
    .executeTakeFirstOrThrow();
}

/** True when a member has this login id (case-insensitive). */
export async function loginIdTaken(db: DbOrTx, loginId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where(sql<string>`lower(login_id)`, '=', loginId.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** True when a member has this nickname (case-insensitive). */
export async function nicknameTaken(db: DbOrTx, nickname: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where(sql<string>`lower(nickname)`, '=', nickname.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** A member's whole row (GET /my), or undefined. */
export async function memberRowById(db: DbOrTx, memberId: number) {
  return db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirst();
}

/** A member's phone and bank account (what PUT /my compares), or undefined. */
export async function memberContact(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('members')
    .select(['phone_e164', 'bank_name', 'account_no'])
    .where('id', '=', memberId)
    .executeTakeFirst();
}

/**
 * Writes a member's profile (PUT /my, SPEC §5 Modify) and, when `passwordHash` is given, the new password.
 * Unique violations are thrown as they are.
 */
export async function updateMemberProfile(
  db: DbOrTx,
  memberId: number,
  p: {
    nickname: string;
    countryCode: string;
    phoneE164: string;
    bankName: string | null;
    accountNo: string | null;
    passwordHash: string | undefined;
  },
): Promise<void> {
  await db
    .updateTable('members')
    .set({
      nickname: p.nickname,
      country_code: p.countryCode,
      phone_e164: p.phoneE164,
      bank_name: p.bankName,
      account_no: p.accountNo,
      updated_at: sql<Date>`now()`,
      ...(p.passwordHash ? { password_hash: p.passwordHash } : {}),
    })
    .where('id', '=', memberId)
    .execute();
}

/** A member's password hash and phone (what a step-up checks, DECISIONS §13), or undefined. */
export async function memberSecrets(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('members')
    .select(['password_hash', 'phone_e164'])
    .where('id', '=', memberId)
    .executeTakeFirst();
}
