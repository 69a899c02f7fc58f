import { LIMITS, type ModifyBody, type Profile, type SignupBody } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, pgCode, pgConstraint } from '../../errors/index.ts';
import { hashPassword } from './password.ts';
import {
  insertSignupMember,
  loginIdTaken,
  memberContact,
  memberRowById,
  nicknameTaken,
  updateMemberProfile,
} from './repo-members.ts';
import { revokeAllRefreshTokens } from './session.ts';
import { requireCurrentPassword } from './step-up.ts';
import { phoneVerifiedWithin } from './verification.ts';

// Availability is decided by these unique indexes (001_core.sql, 002_identity.sql), so a race between two
// signups ends in a clean 409 for the loser instead of a duplicate.
const UNIQUE_CODES = {
  members_login_id_key: 'LOGIN_ID_TAKEN',
  members_nickname_key: 'NICKNAME_TAKEN',
  members_phone_key: 'PHONE_TAKEN',
} as const;

/** Rethrows a unique violation on members as its 409 code; any other error unchanged. */
function mapUniqueViolation(err: unknown): never {
  if (pgCode(err) === '23505') {
    const constraint = pgConstraint(err);
    if (constraint && constraint in UNIQUE_CODES) {
      throw new AppError(UNIQUE_CODES[constraint as keyof typeof UNIQUE_CODES]);
    }
  }
  throw err;
}

/**
 * POST /api/v1/members/signup (SPEC §7, DECISIONS §6). The body is already validated by SignupBody (SPEC §5
 * rules). Throws PHONE_NOT_VERIFIED (no 'signup' verification of that phone within 10 minutes),
 * LOGIN_ID_TAKEN / NICKNAME_TAKEN / PHONE_TAKEN (409).
 */
export async function signup(
  db: Db,
  body: SignupBody,
): Promise<{ id: number; loginId: string; nickname: string }> {
  if (!(await phoneVerifiedWithin(db, body.phoneE164, 'signup', LIMITS.signupVerifyWindowSec))) {
    throw new AppError('PHONE_NOT_VERIFIED');
  }
  const passwordHash = await hashPassword(body.password);
  try {
    const row = await insertSignupMember(db, {
      loginId: body.loginId,
      nickname: body.nickname,
      name: body.name,
      countryCode: body.countryCode,
      phoneE164: body.phoneE164,
      passwordHash,
    });
    return { id: row.id, loginId: row.login_id, nickname: row.nickname };
  } catch (err) {
    mapUniqueViolation(err);
  }
}

/** True when no member has this login id (case-insensitive, like the unique index). */
export async function loginIdAvailable(db: Db, loginId: string): Promise<boolean> {
  return !(await loginIdTaken(db, loginId));
}

/** True when no member has this nickname (case-insensitive, like the unique index). */
export async function nicknameAvailable(db: Db, nickname: string): Promise<boolean> {
  return !(await nicknameTaken(db, nickname));
}

/** GET /my: the caller's profile. Throws UNAUTHORIZED if the member vanished. */
export async function getProfile(db: Db, memberId: number): Promise<Profile> {
  const m = await memberRowById(db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  return {
    id: m.id,
    loginId: m.login_id,
    nickname: m.nickname,
    name: m.name,
    countryCode: m.country_code,
    phoneE164: m.phone_e164,
    bankName: m.bank_name,
    accountNo: m.account_no,
    role: m.role,
    status: m.status,
    kycLevel: m.kyc_level,
    createdAt: m.created_at.toISOString(),
  };
}

/**
 * PUT /my (SPEC §5 Modify, DECISIONS §13): nickname (rules + uniqueness), optional new password ('' =
 * unchanged), phone, bank name and digits-only account number. Changing the password, phone or bank account
 * needs `currentPassword` (requireCurrentPassword: CURRENT_PASSWORD_REQUIRED, INVALID_CREDENTIALS,
 * RATE_LIMITED); a changed phone also needs a verification of the new phone made by this member within
 * 10 minutes (a 'phone_change' code: DECISIONS §21; else PHONE_NOT_VERIFIED). A new password signs out every other session (their refresh
 * tokens are revoked; `sid`, the caller's session, stays). Throws NICKNAME_TAKEN, PHONE_TAKEN as well.
 */
export async function modifyProfile(
  deps: Pick<AppDeps, 'db' | 'config' | 'redis'>,
  memberId: number,
  body: ModifyBody,
  sid?: string,
): Promise<Profile> {
  const { db } = deps;
  const current = await memberContact(db, memberId);
  if (!current) throw new AppError('UNAUTHORIZED');
  const phoneChanged = body.phoneE164 !== current.phone_e164;
  const sensitive =
    Boolean(body.password) ||
    phoneChanged ||
    body.bankName !== current.bank_name ||
    body.accountNo !== current.account_no;
  if (sensitive) await requireCurrentPassword(deps, memberId, body.currentPassword);
  if (
    phoneChanged &&
    !(await phoneVerifiedWithin(db, body.phoneE164, 'phone_change', LIMITS.signupVerifyWindowSec, memberId))
  ) {
    throw new AppError('PHONE_NOT_VERIFIED');
  }
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  try {
    await inTx(db, async (tx) => {
      await updateMemberProfile(tx, memberId, {
        nickname: body.nickName,
        countryCode: body.countryCode,
        phoneE164: body.phoneE164,
        bankName: body.bankName,
        accountNo: body.accountNo,
        passwordHash,
      });
      if (passwordHash) await revokeAllRefreshTokens(tx, memberId, sid);
    });
  } catch (err) {
    mapUniqueViolation(err);
  }
  return getProfile(db, memberId);
}
