import {
  idParam,
  opsCompleteOrderBody,
  opsOrder,
  opsOrdersQuery,
  opsReasonBody,
  pageOf,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { opsOrderById, opsOrders } from './ops-queries.ts';
import { completeOrder, endOrder } from './transitions.ts';

const IdParams = z.object({ id: idParam });
const security = [{ bearer: [] }];
const tags = ['ops'];

/**
 * Operator routes of the buy orders (DECISIONS §8, §10, §11), role OPERATOR (members get 403): the orders
 * and the dispute queue, any order cancelled or completed with a reason, audited in its transaction.
 */
export default async function opsOrderRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const preHandler = deps.guards.requireOperator;

  app.get(
    '/ops/api/v1/orders',
    {
      preHandler,
      schema: { tags, security, querystring: opsOrdersQuery, response: okResponse(pageOf(opsOrder)) },
    },
    async (request) => ok(await opsOrders(db, request.query)),
  );

  app.get(
    '/ops/api/v1/orders/:id',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'One order with both parties, the clock and the dispute (DECISIONS §11)',
        params: IdParams,
        response: okResponse(opsOrder),
      },
    },
    async (request) => ok(await opsOrderById(db, request.params.id)),
  );

  app.post(
    '/ops/api/v1/orders/:id/cancel',
    {
      config: { idempotent: true },
      preHandler,
      schema: { tags, security, params: IdParams, body: opsReasonBody, response: okResponse(opsOrder) },
    },
    async (request) => {
      const actor = {
        kind: 'operator',
        operatorId: memberIdOf(request),
        reason: request.body.reason,
      } as const;
      await endOrder(db, request.params.id, actor, 'cancel');
      return ok(await opsOrderById(db, request.params.id));
    },
  );

  app.post(
    '/ops/api/v1/orders/:id/complete',
    {
      config: { idempotent: true },
      preHandler,
      schema: {
        tags,
        security,
        params: IdParams,
        body: opsCompleteOrderBody,
        response: okResponse(opsOrder),
      },
    },
    async (request) => {
      const actor = {
        kind: 'operator',
        operatorId: memberIdOf(request),
        reason: request.body.reason,
      } as const;
      await completeOrder(db, request.params.id, actor, request.body.txid, deps.config.tradeFeeBps);
      return ok(await opsOrderById(db, request.params.id));
    },
  );
}
