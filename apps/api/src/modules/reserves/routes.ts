import { reserveProof, reserveProofQuery, reservesList } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import { publicCache } from '../../http/public-cache.ts';
import type { FastifyZod } from '../../http/types.ts';
import { makeLimit } from '../identity/index.ts';
import { latestReserves, memberProof } from './queries.ts';

/** Seconds a browser or proxy may reuse GET /api/v1/reserves (a snapshot is taken at most a few times a day). */
export const RESERVES_MAX_AGE_SEC = 60;
/** Proofs a member may fetch a minute: each is a handful of index reads, but a loop should not be free. */
const PROOFS_PER_MIN = 30;

/**
 * Proof of reserves for members and the public (DECISIONS §20): GET /api/v1/reserves (anyone, publicly cacheable)
 * and GET /api/v1/reserves/proof?coinCode= (the signed-in member's own leaf and path; the rate budget is spent
 * before the lookup; 404 NOT_FOUND without a snapshot or a balance in it).
 */
export default async function reservesRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  await app.register(async (pub: FastifyZod) => {
    await publicCache(pub, RESERVES_MAX_AGE_SEC);
    pub.get(
      '/api/v1/reserves',
      { schema: { tags: ['reserves'], response: okResponse(reservesList) } },
      async () => ok(await latestReserves(deps.db)),
    );
  });
  const limit = makeLimit(
    { name: 'reserve-proof', points: PROOFS_PER_MIN, durationSec: 60 },
    deps.redis,
    'p2p:rl',
  );
  app.get(
    '/api/v1/reserves/proof',
    {
      preHandler: deps.guards.requireMember,
      schema: { tags: ['reserves'], querystring: reserveProofQuery, response: okResponse(reserveProof) },
    },
    async (request) => {
      const memberId = memberIdOf(request);
      await limit.consume(String(memberId));
      return ok(await memberProof(deps.db, memberId, request.query.coinCode));
    },
  );
}
