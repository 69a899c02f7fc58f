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
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { opsOrderById, opsOrders } from './ops-queries.ts';
import { completeOrder, endOrder } from './transitions.ts';

const params = z.object({ id: idParam });

/**
 * Operator routes of the buy orders (DECISIONS §8, §10, §11), under the operator API's guard: the orders
 * and the dispute queue, any order cancelled or completed with a reason, audited in its transaction.
 */
export function orderOpsRoutes({ db, config }: AppDeps): OpsRouteFile {
  return (ops) => {
    ops.get('/orders', {
      doc: {
        operationId: 'opsListOrders',
        summary: 'Lists orders by status, disputes first in the dispute queue.',
      },
      querystring: opsOrdersQuery,
      response: pageOf(opsOrder),
      handle: ({ query }) => opsOrders(db, query),
    });

    ops.get('/orders/:id', {
      doc: {
        operationId: 'opsGetOrder',
        summary: 'One order with both parties, the clock and the dispute (DECISIONS §11)',
        errors: ['ORDER_NOT_FOUND'],
      },
      params,
      response: opsOrder,
      handle: ({ params }) => opsOrderById(db, params.id),
    });

    ops.post('/orders/:id/cancel', {
      doc: {
        operationId: 'opsCancelOrder',
        summary: 'Cancels any live order with a reason (audited); the quantity returns to the seller.',
        errors: ['ORDER_NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: opsReasonBody,
      response: opsOrder,
      handle: async ({ operatorId, params, body }) => {
        await endOrder(db, params.id, { kind: 'operator', operatorId, reason: body.reason }, 'cancel');
        return opsOrderById(db, params.id);
      },
    });

    ops.post('/orders/:id/complete', {
      doc: {
        operationId: 'opsCompleteOrder',
        summary: 'Completes any live order with a reason (audited): escrow goes to the buyer.',
        errors: ['ORDER_NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: opsCompleteOrderBody,
      response: opsOrder,
      handle: async ({ operatorId, params, body }) => {
        const actor = { kind: 'operator', operatorId, reason: body.reason } as const;
        await completeOrder(db, params.id, actor, body.txid, config.tradeFeeBps);
        return opsOrderById(db, params.id);
      },
    });
  };
}
