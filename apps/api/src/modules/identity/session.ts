import { randomBytes, randomUUID } from 'node:crypto';
import type { LoginBody, Role, TokenPair } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { checkOperatorTotp } from '../ops/totp.ts';
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
 * Opens a session for `memberId`: a new refresh-token family and an access token bound to it (its `sid`).
 * Login uses it; tests use it to sign in members they made directly.
 */
export async function openSession(
  deps: Pick<AppDeps, 'db' | 'tokens' | 'config'>,
  member: { id: number; role: Role },
): Promise<TokenPair> {
  const familyId = randomUUID();
  const refreshToken = await insertRefreshToken(deps.db, member.id, familyId, deps.config.refreshTokenTtlSec);
  const accessToken = await deps.tokens.sign({ memberId: member.id, role: member.role, sid: familyId });
  return { accessToken, refreshToken };
}

/**
 * POST /api/v1/auth/login: {loginId, password} -> {accessToken, refreshToken} (a new refresh-token family).
 * Four budgets are spent before argon2 runs (DECISIONS §13), so neither guessing one account nor spraying many
 * ids is free: attempts per loginId+IP (LOGIN_MAX_ATTEMPTS), failures per loginId from anywhere, per IP over any
 * ids (per LOGIN_WINDOW_SEC) and over the whole service per minute. A success clears the id+IP attempts and
 * gives back the other points. Throws RATE_LIMITED {retryAfterSec} (429), INVALID_CREDENTIALS (unknown id or
 * wrong password, alike), MEMBER_SUSPENDED (only after a correct password).
 */
export async function login(
  deps: AppDeps,
  limits: IdentityLimits,
  body: LoginBody,
  ip: string,
): Promise<TokenPair> {
  const id = body.loginId.toLowerCase();
  const keys = { pair: `${id}|${ip}`, id, ip, all: 'all' };
  await limits.loginPerIp.consume(keys.ip);
  await limits.loginPerId.consume(keys.id);
  await limits.login.consume(keys.pair);
  await limits.loginGlobal.consume(keys.all);
  const member = await deps.db
    .selectFrom('members')
    .select(['id', 'role', 'status', 'password_hash'])
    .where(sql<string>`lower(login_id)`, '=', id)
    .executeTakeFirst();
  const valid = await verifyPassword(member?.password_hash ?? (await equalizerHash()), body.password);
  if (!member || !valid) throw new AppError('INVALID_CREDENTIALS');
  // Operators with a confirmed TOTP also need a code; asked only now, after a right password (DECISIONS §13).
  if (member.role === 'OPERATOR') await checkOperatorTotp(deps, member.id, body.totpCode);
  await Promise.all([
    limits.login.reset(keys.pair),
    limits.loginPerId.refund(keys.id),
    limits.loginPerIp.refund(keys.ip),
    limits.loginGlobal.refund(keys.all),
  ]);
  if (member.status === 'SUSPENDED') throw new AppError('MEMBER_SUSPENDED');
  return openSession(deps, member);
}

/**
 * POST /api/v1/auth/logout {refreshToken} (DECISIONS §13): revokes the session (refresh-token family) the
 * token belongs to, and with it every access token of that session. Answers the same whether or not the
 * token was known, so it tells a caller nothing; `sid` (the caller's access-token session, when signed in)
 * is revoked too, so a client that lost its refresh token can still end its session.
 */
export async function logout(db: DbOrTx, refreshToken: string, sid?: string): Promise<void> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', sha256(refreshToken))
    .executeTakeFirst();
  if (row) await revokeFamily(db, row.family_id);
  if (sid) await revokeFamily(db, sid);
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
