import { buyOrderDetail, buyOrderDisputeBody, idParam, sellOrderDetail } from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import * as history from './queries.ts';
import { orderParties } from './repo.ts';
import { disputeOrder, markPaid } from './transitions.ts';

const IdParams = z.object({ id: idParam });
const bearer = [{ bearer: [] }];

/**
 * The trade protocol's member calls (DECISIONS §11): "I have paid" and disputes. The order timers are
 * started in app.ts. Non-parties get 404 ORDER_NOT_FOUND.
 */
export default async function paidDisputeRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const member = deps.guards.requireMember;
  const tags = ['market'];

  app.post(
    '/buy-orders/:id/paid',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'The buyer reports the bank transfer sent: REQUESTED -> PAID (DECISIONS §11)',
        params: IdParams,
        response: okResponse(buyOrderDetail),
      },
    },
    async (request) => {
      const buyer = memberIdOf(request);
      await markPaid(db, request.params.id, buyer, deps.config.orders);
      return ok(await history.buyOrderDetail(db, buyer, request.params.id));
    },
  );

  app.post(
    '/buy-orders/:id/dispute',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'A party opens a dispute from PAID, or adds their statement while DISPUTED (DECISIONS §11)',
        params: IdParams,
        body: buyOrderDisputeBody,
        response: okResponse(z.union([sellOrderDetail, buyOrderDetail])),
      },
    },
    async (request) => {
      const me = memberIdOf(request);
      const id = request.params.id;
      const o = await orderParties(db, id);
      const side = o?.buyer_id === me ? 'buyer' : o?.seller_id === me ? 'seller' : null;
      if (side === null) throw new AppError('ORDER_NOT_FOUND');
      await disputeOrder(db, id, { kind: side, memberId: me }, request.body);
      return ok(
        side === 'buyer'
          ? await history.buyOrderDetail(db, me, id)
          : await history.sellOrderDetail(db, me, id),
      );
    },
  );
}
