import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoginBody, LoginResult, Role, TokenPair } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { sha256 } from './codes.ts';
import type { IdentityLimits } from './limits.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { memberForLogin, memberRole } from './repo-members.ts';
import { recordLockedAttempt, recordLoginAttempt } from './repo-records.ts';
import {
  insertRefreshTokenRow,
  liveFamilyIds,
  lockRefreshToken,
  markRefreshTokenRotated,
  refreshTokenFamily,
  revokeFamilyRows,
  revokeMemberRefreshTokens,
} from './repo-sessions.ts';
import { checkOperatorTotp } from './totp.ts';

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
  await insertRefreshTokenRow(db, { memberId, familyId, tokenHash: sha256(token), ttlSec });
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
 * The wait before a sign-in of a login id that failed `failures` times lately from any address (DECISIONS
 * §21): none up to `after` failures, then 250 ms doubling with each further one, at most `maxMs` (0 = never).
 * Milliseconds. A wait, not a refusal: the right password from a new address always gets in.
 */
export function loginSlowDownMs(failures: number, after: number, maxMs: number): number {
  if (maxMs <= 0 || failures <= after) return 0;
  return Math.min(maxMs, 250 * 2 ** Math.min(failures - after - 1, 16));
}

/**
 * POST /api/v1/auth/login: {loginId, password} -> {accessToken, refreshToken} (a new refresh-token family).
 * Three budgets are spent before argon2 runs (DECISIONS §13, §21), so neither guessing one account nor
 * spraying many ids is free: attempts per loginId + IP (LOGIN_MAX_ATTEMPTS: an address that guesses locks
 * itself out of that id, nobody else), failures per IP over any ids (per LOGIN_WINDOW_SEC) and over the whole
 * service per minute. Failures of an id from all addresses only slow its sign-ins down (loginSlowDownMs,
 * logged at warn on `log`), so a stranger cannot lock a member or operator out. A success clears the id+IP
 * attempts and gives back the other points. Every attempt on a known id is recorded in the login history
 * (DECISIONS §19; `userAgent` as sent). Throws RATE_LIMITED {retryAfterSec} (429), INVALID_CREDENTIALS
 * (unknown id or wrong password, alike), TOTP_REQUIRED / TOTP_INVALID (operators), MEMBER_SUSPENDED and
 * MEMBER_CLOSED (only after a correct password).
 */
export async function login(
  deps: AppDeps,
  limits: IdentityLimits,
  body: LoginBody,
  ip: string,
  log?: FastifyBaseLogger,
  userAgent?: string,
): Promise<TokenPair> {
  const id = body.loginId.toLowerCase();
  const keys = { pair: `${id}|${ip}`, ip, all: 'all' };
  await limits.loginPerIp.consume(keys.ip);
  // Only the id+address refusal is recorded: the per-address budget was spent before it, so a flood cannot
  // turn refusals into rows (and recordLockedAttempt keeps one a minute).
  await limits.login.consume(keys.pair).catch(async (err: unknown) => {
    await recordLockedAttempt(deps.db, id, ip, userAgent);
    throw err;
  });
  await limits.loginGlobal.consume(keys.all);
  // Known and unknown ids are counted and slowed alike, so the wait tells nothing about which ids exist.
  const failures = await limits.loginFailuresPerId.count(id);
  const { slowDownAfter, slowDownMaxMs } = deps.config.login;
  const waitMs = loginSlowDownMs(failures, slowDownAfter, slowDownMaxMs);
  if (waitMs > 0) {
    log?.warn({ loginId: id, failures, waitMs }, 'login slowed down: recent failures of this id');
    await sleep(waitMs);
  }
  const member = await memberForLogin(deps.db, id);
  const valid = await verifyPassword(member?.password_hash ?? (await equalizerHash()), body.password);
  const record = (result: LoginResult) =>
    member ? recordLoginAttempt(deps.db, { memberId: member.id, ip, userAgent, result }) : undefined;
  if (!member || !valid) {
    await limits.loginFailuresPerId.add(id);
    await record('BAD_PASSWORD');
    throw new AppError('INVALID_CREDENTIALS');
  }
  // Operators with a confirmed TOTP also need a code; asked only now, after a right password (DECISIONS §13).
  if (member.role === 'OPERATOR') {
    await checkOperatorTotp(deps, member.id, body.totpCode).catch(async (err: unknown) => {
      if (err instanceof AppError && err.code === 'TOTP_INVALID') {
        await limits.loginFailuresPerId.add(id);
        await record('BAD_TOTP');
      }
      throw err;
    });
  }
  await Promise.all([
    limits.login.reset(keys.pair),
    limits.loginPerIp.refund(keys.ip),
    limits.loginGlobal.refund(keys.all),
  ]);
  return admit(deps, member, record);
}

/**
 * The last step of a sign-in with the right secrets: a suspended or closed membership is told so (DECISIONS §8,
 * §19; only the holder of the password learns it, a guesser gets INVALID_CREDENTIALS like any wrong password),
 * anything else gets a session. The outcome is recorded with `record`.
 */
async function admit(
  deps: AppDeps,
  member: { id: number; role: Role; status: string },
  record: (result: LoginResult) => Promise<void> | undefined,
): Promise<TokenPair> {
  if (member.status === 'SUSPENDED') {
    await record('SUSPENDED');
    throw new AppError('MEMBER_SUSPENDED');
  }
  if (member.status === 'CLOSED') {
    await record('CLOSED');
    throw new AppError('MEMBER_CLOSED');
  }
  const pair = await openSession(deps, member);
  await record('OK');
  return pair;
}

/**
 * POST /api/v1/auth/logout {refreshToken} (DECISIONS §13): revokes the session (refresh-token family) the
 * token belongs to, and with it every access token of that session. Answers the same whether or not the
 * token was known, so it tells a caller nothing; `sid` (the caller's access-token session, when signed in)
 * is revoked too, so a client that lost its refresh token can still end its session.
 */
export async function logout(db: DbOrTx, refreshToken: string, sid?: string): Promise<void> {
  const familyId = await refreshTokenFamily(db, sha256(refreshToken));
  if (familyId) await revokeFamilyRows(db, familyId);
  if (sid) await revokeFamilyRows(db, sid);
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
    const row = await lockRefreshToken(tx, sha256(refreshToken));
    if (!row || row.revoked_at !== null || row.expired) return { ok: false };
    if (row.rotated_at !== null) {
      await revokeFamilyRows(tx, row.family_id);
      return { ok: false };
    }
    if (row.status === 'SUSPENDED') return { ok: false, suspended: true };
    await markRefreshTokenRotated(tx, row.id);
    const token = await insertRefreshToken(tx, row.member_id, row.family_id, deps.config.refreshTokenTtlSec);
    return { ok: true, memberId: row.member_id, familyId: row.family_id, token };
  });
  if (!result.ok) throw new AppError(result.suspended ? 'MEMBER_SUSPENDED' : 'REFRESH_TOKEN_INVALID');
  const role = await memberRole(deps.db, result.memberId);
  const accessToken = await deps.tokens.sign({
    memberId: result.memberId,
    role,
    sid: result.familyId,
  });
  return { accessToken, refreshToken: result.token };
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
  await revokeMemberRefreshTokens(db, memberId, keepFamilyId);
}

/**
 * Which of the sessions `sids` (refresh-token families) are still live: not revoked, not expired, the member not
 * suspended. The event streams recheck theirs with it (DECISIONS §21).
 */
export function liveSessions(db: DbOrTx, sids: readonly string[]): Promise<Set<string>> {
  return liveFamilyIds(db, sids);
}
