import {
  idParam,
  opsDeposit,
  opsDepositBody,
  opsWithdrawal,
  opsWithdrawalCompleteBody,
  opsWithdrawalPage,
  opsWithdrawalRejectBody,
  opsWithdrawalsQuery,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { decideWithdrawal, listWithdrawals, opsCreditDeposit } from './withdrawals.ts';

const idParams = z.object({ id: idParam });

/** Operator calls on deposits and withdrawals (DECISIONS §10), role OPERATOR only; members get 403. */
export default async function opsWalletRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const operator = deps.guards.requireOperator;
  const tags = ['ops'];

  app.post(
    '/ops/api/v1/deposits',
    {
      config: { idempotent: true },
      preHandler: operator,
      schema: { tags, body: opsDepositBody, response: okResponse(opsDeposit) },
    },
    async (request) => {
      const b = request.body;
      return ok(
        await opsCreditDeposit(deps.db, memberIdOf(request), {
          coin: b.coinCode,
          address: b.address,
          amount: b.amount,
          txid: b.txid,
          index: b.index,
          destinationTag: b.destinationTag ?? null,
        }),
      );
    },
  );

  app.get(
    '/ops/api/v1/withdrawals',
    {
      preHandler: operator,
      schema: { tags, querystring: opsWithdrawalsQuery, response: okResponse(opsWithdrawalPage) },
    },
    async (request) => ok(await listWithdrawals(deps.db, request.query)),
  );

  app.post(
    '/ops/api/v1/withdrawals/:id/complete',
    {
      config: { idempotent: true },
      preHandler: operator,
      schema: {
        tags,
        params: idParams,
        body: opsWithdrawalCompleteBody,
        response: okResponse(opsWithdrawal),
      },
    },
    async (request) =>
      ok(
        await decideWithdrawal(deps.db, memberIdOf(request), request.params.id, {
          kind: 'complete',
          txid: request.body.txid,
        }),
      ),
  );

  app.post(
    '/ops/api/v1/withdrawals/:id/reject',
    {
      config: { idempotent: true },
      preHandler: operator,
      schema: { tags, params: idParams, body: opsWithdrawalRejectBody, response: okResponse(opsWithdrawal) },
    },
    async (request) =>
      ok(
        await decideWithdrawal(deps.db, memberIdOf(request), request.params.id, {
          kind: 'reject',
          reason: request.body.reason,
        }),
      ),
  );
}
