import {
  buyOrderCompleteBody,
  buyOrderCreateBody,
  buyOrderCreated,
  buyOrderDetail,
  idParam,
  myListQuery,
  myOrderCounts,
  orderHistoryItem,
  pageOf,
  sellOrderDetail,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { requireStepUp } from '../identity/index.ts';
import paidDisputeRoutes from './paid-dispute-routes.ts';
import * as history from './queries.ts';
import { buyOrderView, createBuyOrder, type OrderRules } from './service.ts';
import { completeOrder, endOrder } from './transitions.ts';

const IdParams = z.object({ id: idParam });
const bearer = [{ bearer: [] }];

/** The purchase rules from the configuration (DECISIONS §11 timers and limits, §19 levels and holds). */
function orderRulesOf(deps: AppDeps): OrderRules {
  return { ...deps.config.orders, kyc: deps.config.kyc, holds: deps.config.trust.holds };
}

/**
 * Buy order routes (SPEC §7, DECISIONS §4, §10): create, cancel, reject, complete, the histories; the trade
 * protocol's "I have paid" and disputes in paid-dispute-routes.ts, the operator's in ops-routes.ts (registered
 * with the operator API). The order timers and the escrow invariants are wired in app.ts.
 */
export default async function orderRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { network } = deps.config.chain;
  const rules = orderRulesOf(deps);
  const { db } = deps;
  const member = deps.guards.requireMember;
  const tags = ['market'];

  app.post(
    '/buy-orders',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: { tags, security: bearer, body: buyOrderCreateBody, response: okResponse(buyOrderCreated) },
    },
    async (request) => ok(await createBuyOrder(db, network, memberIdOf(request), request.body, rules)),
  );

  app.post(
    '/buy-orders/:id/cancel',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: { tags, security: bearer, params: IdParams, response: okResponse(buyOrderCreated) },
    },
    async (request) => {
      const buyer = memberIdOf(request);
      await endOrder(db, request.params.id, { kind: 'buyer', memberId: buyer }, 'cancel');
      return ok(await buyOrderView(db, request.params.id));
    },
  );

  app.post(
    '/buy-orders/:id/reject',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: { tags, security: bearer, params: IdParams, response: okResponse(sellOrderDetail) },
    },
    async (request) => {
      const seller = memberIdOf(request);
      await endOrder(db, request.params.id, { kind: 'seller', memberId: seller }, 'reject');
      return ok(await history.sellOrderDetail(db, seller, request.params.id));
    },
  );

  app.post(
    '/buy-orders/:id/complete',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        params: IdParams,
        body: buyOrderCompleteBody,
        response: okResponse(sellOrderDetail),
      },
    },
    async (request) => {
      const seller = memberIdOf(request);
      // DECISIONS §13: releasing escrow needs the seller's password or a fresh code, before anything moves.
      await requireStepUp(deps, seller, request.body.stepUp);
      await completeOrder(
        db,
        request.params.id,
        { kind: 'seller', memberId: seller },
        request.body.txid,
        deps.config.tradeFeeBps,
      );
      return ok(await history.sellOrderDetail(db, seller, request.params.id));
    },
  );

  for (const side of ['buyer', 'seller'] as const) {
    const path = side === 'buyer' ? '/my/buy-history' : '/my/sell-history';
    app.get(
      path,
      {
        preHandler: member,
        schema: {
          tags,
          security: bearer,
          querystring: myListQuery,
          response: okResponse(pageOf(orderHistoryItem)),
        },
      },
      async (request) => ok(await history.orderHistory(db, memberIdOf(request), side, request.query)),
    );
  }

  app.get(
    '/my/order-counts',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: "Orders waiting for the member: the seller's badge (DECISIONS §11)",
        response: okResponse(myOrderCounts),
      },
    },
    async (request) => ok(await history.myOrderCounts(db, memberIdOf(request))),
  );

  app.get(
    '/my/buy-history/:id',
    {
      preHandler: member,
      schema: { tags, security: bearer, params: IdParams, response: okResponse(buyOrderDetail) },
    },
    async (request) => ok(await history.buyOrderDetail(db, memberIdOf(request), request.params.id)),
  );

  app.get(
    '/my/sell-history/:id',
    {
      preHandler: member,
      schema: { tags, security: bearer, params: IdParams, response: okResponse(sellOrderDetail) },
    },
    async (request) => ok(await history.sellOrderDetail(db, memberIdOf(request), request.params.id)),
  );

  await app.register(paidDisputeRoutes, deps);
}
