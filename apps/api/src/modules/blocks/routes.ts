import { BlockBody, BlockList, BlockParams } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { makeLimit } from '../identity/index.ts';
import { blockList, blockMember, unblockMember } from './service.ts';

const bearer = [{ bearer: [] }];

/**
 * Routes of the blocks module (DECISIONS §19 "Counterparts"): block, unblock and list, each the signed-in
 * member's own list. Blocking by nickname tells whether a nickname exists, as POST /members/check-nickname does,
 * so it spends the same per-address lookup budget (LOOKUP_PER_IP_PER_HOUR; shared through Redis when configured)
 * before it looks. None of them changes what the public trade list's shared cache holds (the blocker's view is
 * filtered apart from it), so they leave the cache alone.
 */
export default async function blockRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const member = deps.guards.requireMember;
  const lookupPerIp = makeLimit(
    { name: 'lookup-ip', points: deps.config.lookupPerIpPerHour, durationSec: 3600 },
    deps.redis,
    'p2p:rl',
  );
  const config = { tradeListUnaffected: true };

  app.get(
    '/api/v1/blocks',
    {
      onRequest: member,
      config,
      schema: { tags: ['my'], security: bearer, response: okResponse(BlockList) },
    },
    async (request) => ok(await blockList(db, memberIdOf(request))),
  );

  app.post(
    '/api/v1/blocks',
    {
      onRequest: member,
      config,
      schema: { tags: ['my'], security: bearer, body: BlockBody, response: okResponse(BlockList) },
    },
    async (request) => {
      await lookupPerIp.consume(request.ip);
      return ok(await blockMember(db, memberIdOf(request), request.body.nickname));
    },
  );

  app.delete(
    '/api/v1/blocks/:nickname',
    {
      onRequest: member,
      config,
      schema: { tags: ['my'], security: bearer, params: BlockParams, response: okResponse(BlockList) },
    },
    async (request) => ok(await unblockMember(db, memberIdOf(request), request.params.nickname)),
  );
}
