import { randomBytes, randomUUID } from 'node:crypto';
import type { LoginBody, TokenPair } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { sha256 } from './codes.ts';
import type { IdentityLimits } from './limits.ts';
import { hashPassword, verifyPassword } from './password.ts';

let timingHash: Promise<string> | undefined;
// Unknown ids still pay for one argon2 verification, so response time does not tell which ids exist.
function equalizerHash(): Promise<string> {
  timingHash ??= hashPassword(randomBytes(16).toString('hex'));
  return timingHash;
}

async function insertRefreshToken(
  db: DbOrTx,
  memberId: number,
  familyId: string,
  ttlSec: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('refresh_tokens')
    .values({
      member_id: memberId,
      family_id: familyId,
      token_hash: sha256(token),
      expires_at: sql<Date>`now() + make_interval(secs => ${ttlSec})`,
      rotated_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

/**
 * POST /api/v1/auth/login: {loginId, password} -> {accessToken, refreshToken} (a new refresh-token family).
 * Failed attempts per loginId+IP are limited (LOGIN_MAX_ATTEMPTS per LOGIN_WINDOW_SEC -> 429 RATE_LIMITED);
 * a success clears them. Throws INVALID_CREDENTIALS (unknown id or wrong password, alike),
 * MEMBER_SUSPENDED (only after a correct password).
 */
export async function login(
  deps: AppDeps,
  limits: IdentityLimits,
  body: LoginBody,
  ip: string,
): Promise<TokenPair> {
  const limitKey = `${body.loginId.toLowerCase()}|${ip}`;
  await limits.login.consume(limitKey);
  const member = await deps.db
    .selectFrom('members')
    .select(['id', 'role', 'status', 'password_hash'])
    .where(sql<string>`lower(login_id)`, '=', body.loginId.toLowerCase())
    .executeTakeFirst();
  const valid = await verifyPassword(member?.password_hash ?? (await equalizerHash()), body.password);
  if (!member || !valid) throw new AppError('INVALID_CREDENTIALS');
  await limits.login.reset(limitKey);
  if (member.status === 'SUSPENDED') throw new AppError('MEMBER_SUSPENDED');
  const familyId = randomUUID();
  const refreshToken = await insertRefreshToken(deps.db, member.id, familyId, deps.config.refreshTokenTtlSec);
  const accessToken = await deps.tokens.sign({ memberId: member.id, role: member.role, sid: familyId });
  return { accessToken, refreshToken };
}

type RotateResult =
  | { ok: true; memberId: number; familyId: string; token: string }
  | { ok: false; suspended?: boolean };

/**
 * POST /api/v1/auth/refresh: rotates `refreshToken` (DECISIONS §6) -> a new {accessToken, refreshToken}.
 * A token that was already rotated (reuse: likely stolen) revokes its whole family, so the newest token
 * stops working too. Throws REFRESH_TOKEN_INVALID (unknown, expired, revoked or reused), MEMBER_SUSPENDED.
 */
export async function refresh(deps: AppDeps, refreshToken: string): Promise<TokenPair> {
  const result = await inTx(deps.db, async (tx): Promise<RotateResult> => {
    const row = await tx
      .selectFrom('refresh_tokens as t')
      .innerJoin('members as m', 'm.id', 't.member_id')
      .select([
        't.id',
        't.member_id',
        't.family_id',
        't.rotated_at',
        't.revoked_at',
        'm.status',
        sql<boolean>`t.expires_at <= now()`.as('expired'),
      ])
      .where('t.token_hash', '=', sha256(refreshToken))
      .forUpdate('t')
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expired) return { ok: false };
    if (row.rotated_at !== null) {
      await revokeFamily(tx, row.family_id);
      return { ok: false };
    }
    if (row.status === 'SUSPENDED') return { ok: false, suspended: true };
    await tx
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
    const token = await insertRefreshToken(tx, row.member_id, row.family_id, deps.config.refreshTokenTtlSec);
    return { ok: true, memberId: row.member_id, familyId: row.family_id, token };
  });
  if (!result.ok) throw new AppError(result.suspended ? 'MEMBER_SUSPENDED' : 'REFRESH_TOKEN_INVALID');
  const member = await deps.db
    .selectFrom('members')
    .select('role')
    .where('id', '=', result.memberId)
    .executeTakeFirstOrThrow();
  const accessToken = await deps.tokens.sign({
    memberId: result.memberId,
    role: member.role,
    sid: result.familyId,
  });
  return { accessToken, refreshToken: result.token };
}

async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Revokes every refresh token of a member (after a password reset: sign out everywhere), except the
 * session `keepFamilyId` (a password changed through PUT /my keeps the session that changed it).
 */
export async function revokeAllRefreshTokens(
  db: DbOrTx,
  memberId: number,
  keepFamilyId?: string,
): Promise<void> {
  let q = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null);
  if (keepFamilyId) q = q.where('family_id', '<>', keepFamilyId);
  await q.execute();
}
