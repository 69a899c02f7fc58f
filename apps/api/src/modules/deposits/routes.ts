import {
  chainStatusList,
  idParam,
  unmatchedAssignBody,
  unmatchedPayment,
  unmatchedPaymentPage,
  unmatchedQuery,
  unmatchedReturnBody,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { chainStatusOf, type DepositWatchers } from './service.ts';
import { assignUnmatched, listUnmatched, returnUnmatched } from './unmatched.ts';

const idParams = z.object({ id: idParam });

/**
 * The operator's chain calls (DECISIONS §17), role OPERATOR only: the watchers' status per coin and the queue of
 * payments that match no member (assign to a member, or record a return; both audit-logged and idempotent).
 */
export default async function depositRoutes(
  app: FastifyZod,
  deps: AppDeps & { depositWatchers: DepositWatchers },
): Promise<void> {
  const operator = deps.guards.requireOperator;
  const tags = ['ops'];
  const required = deps.config.chainWatch.confirmations;
  const watched = new Set(deps.depositWatchers.watchers.keys());

  app.get(
    '/ops/api/v1/chain/status',
    { preHandler: operator, schema: { tags, response: okResponse(chainStatusList) } },
    async () => ok(await chainStatusOf(deps.db, deps.config, watched)),
  );

  app.get(
    '/ops/api/v1/chain/unmatched',
    {
      preHandler: operator,
      schema: { tags, querystring: unmatchedQuery, response: okResponse(unmatchedPaymentPage) },
    },
    async (request) => ok(await listUnmatched(deps.db, required, request.query)),
  );

  app.post(
    '/ops/api/v1/chain/unmatched/:id/assign',
    {
      config: { idempotent: true },
      preHandler: operator,
      schema: { tags, params: idParams, body: unmatchedAssignBody, response: okResponse(unmatchedPayment) },
    },
    async (request) =>
      ok(await assignUnmatched(deps.db, required, memberIdOf(request), request.params.id, request.body)),
  );

  app.post(
    '/ops/api/v1/chain/unmatched/:id/return',
    {
      config: { idempotent: true },
      preHandler: operator,
      schema: { tags, params: idParams, body: unmatchedReturnBody, response: okResponse(unmatchedPayment) },
    },
    async (request) =>
      ok(await returnUnmatched(deps.db, required, memberIdOf(request), request.params.id, request.body)),
  );
}
