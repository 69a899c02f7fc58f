import { CloseBody, ClosedMembership, LoginHistory } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { blockRoutes } from '../blocks/index.ts';
import { makeLimit } from '../identity/index.ts';
import { startRetentionJob } from './purge.ts';
import { closeMembership, loginHistory } from './service.ts';

const bearer = [{ bearer: [] }];
/** Closing attempts per member an hour, whatever their outcome (each runs argon2 and the emptiness check). */
const CLOSE_PER_HOUR = 10;

/**
 * Routes of the records module (DECISIONS §19 "Records"): the member's login history and closing the
 * membership. Neither changes a trade-list card (a member with an active listing cannot close), so both leave
 * the shared trade-list cache alone. Also the one registration of §19's other member-record pieces: the blocks
 * module's routes, and this instance's retention job (stopped before the app closes, the database still open).
 */
export default async function recordRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  await app.register(blockRoutes, deps);
  const { retention } = deps.config;
  const rules = { years: retention.years, batch: retention.batch, loginBatch: retention.batch * 20 };
  app.addHook('preClose', startRetentionJob(deps.db, rules, retention.jobIntervalMs, app.log));
  const member = deps.guards.requireMember;
  const closeLimit = makeLimit(
    { name: 'close', points: CLOSE_PER_HOUR, durationSec: 3600 },
    deps.redis,
    'p2p:rl',
  );
  const config = { tradeListUnaffected: true };

  app.get(
    '/api/v1/my/logins',
    {
      onRequest: member,
      config,
      schema: { tags: ['my'], security: bearer, response: okResponse(LoginHistory) },
    },
    async (request) => ok(await loginHistory(deps.db, memberIdOf(request))),
  );

  app.post(
    '/api/v1/my/close',
    {
      onRequest: member,
      config,
      schema: { tags: ['my'], security: bearer, body: CloseBody, response: okResponse(ClosedMembership) },
    },
    async (request) => {
      const memberId = memberIdOf(request);
      await closeLimit.consume(String(memberId));
      const years = deps.config.retention.years;
      return ok(await closeMembership(deps, memberId, request.body.currentPassword, years));
    },
  );
}
