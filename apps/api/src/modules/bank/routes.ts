import {
  bankAccountState,
  bankOutboxOut,
  bankOutboxQuery,
  bankVerifyBody,
  bankVerifyRequestBody,
  bankVerifyRequestOut,
  verifiedBankAccount,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { ConsoleBankProvider } from './provider.ts';
import {
  type BankContext,
  bankLimits,
  requestBankVerification,
  bankAccountState as stateOf,
} from './service.ts';
import { verifyBankCode } from './verify.ts';

const devHolderBody = z.object({
  accountNo: z.string().regex(/^\d{1,30}$/),
  holderName: z.string().min(1).max(50),
});

/**
 * The 1원 check (DECISIONS §19): GET /api/v1/bank-account, POST /api/v1/bank-account/verify/request,
 * POST /api/v1/bank-account/verify; with the console provider outside production also GET /dev/bank/outbox
 * and PUT /dev/bank/holder (the holder name the console bank reports for an account number).
 */
export default async function bankRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const member = deps.guards.requireMember;
  const consoleProvider =
    deps.config.trust.bank.provider === 'console' ? new ConsoleBankProvider(deps.redis, app.log) : null;
  const ctx: BankContext = { deps, provider: consoleProvider, limits: bankLimits(deps) };
  const cfg = { tradeListUnaffected: true };

  app.get(
    '/api/v1/bank-account',
    { preHandler: member, schema: { tags: ['bank'], response: okResponse(bankAccountState) } },
    async (request) => ok(await stateOf(deps, memberIdOf(request))),
  );
  app.post(
    '/api/v1/bank-account/verify/request',
    {
      config: cfg,
      preHandler: member,
      schema: { tags: ['bank'], body: bankVerifyRequestBody, response: okResponse(bankVerifyRequestOut) },
    },
    async (request) => ok(await requestBankVerification(ctx, memberIdOf(request), request.body, request.ip)),
  );
  app.post(
    '/api/v1/bank-account/verify',
    {
      config: cfg,
      preHandler: member,
      schema: { tags: ['bank'], body: bankVerifyBody, response: okResponse(verifiedBankAccount) },
    },
    async (request) => ok(await verifyBankCode(ctx, memberIdOf(request), request.body)),
  );
  if (!consoleProvider || deps.config.isProduction) return;
  app.get(
    '/dev/bank/outbox',
    { schema: { tags: ['dev'], querystring: bankOutboxQuery, response: okResponse(bankOutboxOut) } },
    async (request) => {
      const entry = await consoleProvider.newest(request.query.accountNo);
      if (!entry) throw new AppError('NOT_FOUND');
      return ok(entry);
    },
  );
  app.put(
    '/dev/bank/holder',
    { config: cfg, schema: { tags: ['dev'], body: devHolderBody } },
    async (request) => {
      await consoleProvider.setHolder(request.body.accountNo, request.body.holderName);
      return ok({});
    },
  );
}
