import type { Role } from '@p2p/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/index.ts';
import type { AccessTokens } from './tokens.ts';

export interface AuthContext {
  memberId: number;
  role: Role;
  /** The session (refresh-token family) of the access token. */
  sid: string;
  /** When the access token expires (epoch seconds): the event stream ends then (DECISIONS §21). */
  exp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * Builds the preHandlers that guard routes. The bearer token is verified, then the member is read so that
 * a suspension (DECISIONS §8) or a role change takes effect at once rather than when the token expires,
 * together with whether the token's session is still live (DECISIONS §13: logout, a password change or
 * reset, and refresh-token reuse revoke the session, and its access tokens die with it). One indexed query.
 */
export function createGuards(db: Db, tokens: AccessTokens) {
  async function authenticate(request: FastifyRequest): Promise<AuthContext> {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw new AppError('UNAUTHORIZED');
    const claims = await tokens.verify(header.slice(7).trim());
    const member = await db
      .selectFrom('members as m')
      .select([
        'm.id',
        'm.role',
        'm.status',
        // A family is live while one of its tokens is neither revoked nor expired (rotation keeps one).
        sql<boolean>`exists (select 1 from refresh_tokens t where t.family_id = ${claims.sid}::uuid
          and t.member_id = m.id and t.revoked_at is null and t.expires_at > now())`.as('live'),
      ])
      .where('m.id', '=', claims.memberId)
      .executeTakeFirst();
    if (!member) throw new AppError('UNAUTHORIZED');
    // Suspension revokes the sessions too; the holder of a token is told why rather than "sign in again".
    if (member.status === 'SUSPENDED') throw new AppError('MEMBER_SUSPENDED');
    if (!member.live) throw new AppError('UNAUTHORIZED');
    request.auth = { memberId: member.id, role: member.role, sid: claims.sid, exp: claims.exp };
    return request.auth;
  }

  /** preHandler: any signed-in, non-suspended member (operators included). */
  async function requireMember(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    await authenticate(request);
  }

  /** preHandler: role OPERATOR only; members get 403 FORBIDDEN (DECISIONS §1). */
  async function requireOperator(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const auth = await authenticate(request);
    if (auth.role !== 'OPERATOR') throw new AppError('FORBIDDEN');
  }

  return { requireMember, requireOperator };
}

export type Guards = ReturnType<typeof createGuards>;

/** The caller's member id inside a guarded route. */
export function memberIdOf(request: FastifyRequest): number {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return request.auth.memberId;
}
