import { randomBytes, webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '@p2p/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import { AppError } from '../errors/index.ts';

export interface AccessClaims {
  memberId: number;
  role: Role;
  /** The refresh-token family (session) the token was issued for; the guard refuses it once revoked. */
  sid: string;
}

/** What a verified token says: its claims and when it expires (`exp`, epoch seconds). */
export interface VerifiedClaims extends AccessClaims {
  exp: number;
}

// A session id is the refresh-token family, a UUID (session.ts).
const SID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// `sub` is the member id in decimal, written by sign(): nothing else ("3abc", "03", "1e3") is read as an id.
const SUB_RE = /^[1-9]\d{0,15}$/;

/** How many verified access tokens each process remembers (about 300 bytes each). */
export const VERIFIED_TOKENS_KEPT = 10_000;

/** Signs and verifies access tokens: HS256 JWTs, `accessTokenTtlSec` long (DECISIONS §6). */
export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /** The token's claims and expiry. Throws AppError UNAUTHORIZED / TOKEN_EXPIRED. */
  verify(token: string): Promise<VerifiedClaims>;
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
  // The HMAC key is imported into WebCrypto once: given the raw bytes, jose imported them again for every
  // token it signed or verified (10% of the API's CPU on the purchase path, bench/README.md).
  let imported: Promise<webcrypto.CryptoKey> | undefined;
  const key = () => {
    imported ??= webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return imported;
  };
  // Tokens already verified, with their expiry (epoch seconds): a member's token is sent with every request, and
  // verifying the same string again can only give the same answer until `exp`, which is checked on every hit
  // (the HMAC was 7% of the API's CPU on the purchase path, bench/README.md). Refused tokens are never kept.
  // Revocation is not decided here: the guard still reads the session for every request.
  const verified = new LRUCache<string, { claims: AccessClaims; exp: number }>({ max: VERIFIED_TOKENS_KEPT });
  return {
    async sign({ memberId, role, sid }) {
      return new SignJWT({ role, sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(memberId))
        .setIssuedAt()
        .setExpirationTime(`${ttlSec}s`)
        .setJti(randomBytes(8).toString('hex'))
        .sign(await key());
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose's rule: expired once `exp` <= now in whole seconds
        if (known.exp <= Math.floor(Date.now() / 1000)) throw new AppError('TOKEN_EXPIRED');
        return { ...known.claims, exp: known.exp };
      }
      try {
        // DECISIONS §13: `exp`, `iat`, `sub` and `sid` are required; a token without an expiry never dies.
        const { payload } = await jwtVerify(token, await key(), {
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
        const claims: AccessClaims = { memberId, role, sid };
        const exp = Number(payload.exp);
        verified.set(token, { claims, exp });
        return { ...claims, exp };
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
        throw new AppError('UNAUTHORIZED');
      }
    },
  };
}
