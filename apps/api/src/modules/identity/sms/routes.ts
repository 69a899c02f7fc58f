import {
  SmsOutboxOut,
  SmsOutboxQuery,
  SmsRequestBody,
  SmsRequestOut,
  SmsVerifyBody,
  SmsVerifyOut,
} from '@p2p/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors/index.ts';
import { ok, okResponse } from '../../../http/envelope.ts';
import type { FastifyZod } from '../../../http/types.ts';
import { requestCode, type SmsContext, verifySmsCode } from './service.ts';

/**
 * POST /sms/request, POST /sms/verify (SPEC §7) and, with the console provider outside production only,
 * GET /dev/sms/outbox?phone=<E.164> (DECISIONS §10).
 */
export function registerSmsRoutes(app: FastifyZod, ctx: SmsContext): void {
  const { guards } = ctx.deps;
  // A bearer token is optional here: with one (checked like any guarded route) the code is the member's.
  async function optionalMember(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.headers.authorization !== undefined) await guards.requireMember(request, reply);
  }
  const memberOf = (request: FastifyRequest) => request.auth?.memberId ?? null;

  app.post(
    '/sms/request',
    {
      config: { tradeListUnaffected: true },
      onRequest: optionalMember,
      schema: { tags: ['sms'], body: SmsRequestBody, response: okResponse(SmsRequestOut) },
    },
    async (request) => ok(await requestCode(ctx, request.body, memberOf(request), request.ip, request.log)),
  );

  app.post(
    '/sms/verify',
    {
      config: { tradeListUnaffected: true },
      onRequest: optionalMember,
      schema: { tags: ['sms'], body: SmsVerifyBody, response: okResponse(SmsVerifyOut) },
    },
    async (request) => {
      await verifySmsCode(ctx, request.body, memberOf(request));
      return ok({ verified: true as const });
    },
  );

  const { outbox } = ctx.sms;
  if (outbox && !ctx.deps.config.isProduction) {
    app.get(
      '/dev/sms/outbox',
      { schema: { tags: ['dev'], querystring: SmsOutboxQuery, response: okResponse(SmsOutboxOut) } },
      async (request) => {
        const entry = await outbox.newest(request.query.phone);
        if (!entry) throw new AppError('NOT_FOUND');
        return ok(entry);
      },
    );
  }
}
