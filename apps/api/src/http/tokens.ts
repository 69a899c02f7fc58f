import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '@p2p/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

export interface AccessClaims {
  memberId: number;
  role: Role;
  /** The refresh-token family (session) the token was issued for; the guard refuses it once revoked. */
  sid: string;
}

// A session id is the refresh-token family, a UUID (session.ts).
const SID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// `sub` is the member id in decimal, written by sign(): nothing else ("3abc", "03", "1e3") is read as an id.
const SUB_RE = /^[1-9]\d{0,15}$/;

/** Signs and verifies access tokens: HS256 JWTs, `accessTokenTtlSec` long (DECISIONS §6). */
export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /** Throws AppError UNAUTHORIZED / TOKEN_EXPIRED. */
  verify(token: string): Promise<AccessClaims>;
}

/**
 * The signing secret: JWT_SECRET; outside production without one, a random secret kept under DATA_DIR
 * (so tokens survive a restart), or per process when the database is in memory. Production refuses to
 * start without JWT_SECRET.
 */
export function resolveJwtSecret(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.isProduction) throw new Error('JWT_SECRET is required in production');
  if (config.pgliteInMemory || config.databaseUrl) return randomBytes(32);
  const file = join(config.dataDir, 'dev-jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

export function createAccessTokens(secret: Uint8Array, ttlSec: number): AccessTokens {
  return {
    async sign({ memberId, role, sid }) {
      return new SignJWT({ role, sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(memberId))
        .setIssuedAt()
        .setExpirationTime(`${ttlSec}s`)
        .setJti(randomBytes(8).toString('hex'))
        .sign(secret);
    },
    async verify(token) {
      try {
        // DECISIONS §13: `exp`, `iat`, `sub` and `sid` are required; a token without an expiry never dies.
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        });
        const { sub, role, sid } = payload;
        if (typeof sub !== 'string' || !SUB_RE.test(sub)) throw new AppError('UNAUTHORIZED');
        const memberId = Number(sub);
        if (!Number.isSafeInteger(memberId) || (role !== 'MEMBER' && role !== 'OPERATOR')) {
          throw new AppError('UNAUTHORIZED');
        }
        if (typeof sid !== 'string' || !SID_RE.test(sid)) throw new AppError('UNAUTHORIZED');
        return { memberId, role, sid };
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
        throw new AppError('UNAUTHORIZED');
      }
    },
  };
}
