import {
  AvailabilityOut,
  CheckIdBody,
  CheckNicknameBody,
  envelopeOf,
  FindPhoneBody,
  FindPhoneOut,
  LoginBody,
  ModifyBody,
  Profile,
  RefreshBody,
  ResetPasswordBody,
  ResetTicketOut,
  SignupBody,
  SignupOut,
  TokenPair,
  VerifyResetBody,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { createIdentityLimits } from './limits.ts';
import { getProfile, loginIdAvailable, modifyProfile, nicknameAvailable, signup } from './members.ts';
import { findPhone, resetPassword, verifyReset } from './reset.ts';
import { login, logout, refresh } from './session.ts';
import { createSms } from './sms/provider.ts';
import { registerSmsRoutes } from './sms/routes.ts';

/** The user agent a sign-in came with, for the login history (DECISIONS §19). */
const userAgentOf = (request: { headers: { 'user-agent'?: string } }) => request.headers['user-agent'];

/**
 * Routes of the identity module: every auth, members, /my and /sms call of SPEC §7 with the rules of
 * SPEC §5 and DECISIONS §6. Throws at registration (refusing to start) when the SMS provider is unusable.
 */
export default async function identityRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const limits = createIdentityLimits(deps.config, deps.redis);
  const sms = createSms(deps.config, deps.redis, app.log);
  const { db } = deps;

  app.post(
    '/api/v1/auth/login',
    {
      config: { tradeListUnaffected: true },
      schema: { tags: ['auth'], body: LoginBody, response: okResponse(TokenPair) },
    },
    async (request) =>
      ok(await login(deps, limits, request.body, request.ip, request.log, userAgentOf(request))),
  );

  app.post(
    '/api/v1/auth/refresh',
    {
      config: { tradeListUnaffected: true },
      schema: { tags: ['auth'], body: RefreshBody, response: okResponse(TokenPair) },
    },
    async (request) => ok(await refresh(deps, request.body.refreshToken)),
  );

  // DECISIONS §13. No guard: a client whose access token already expired must still be able to end its
  // session. A valid bearer token's own session is ended as well; an invalid one is ignored, not refused.
  app.post(
    '/api/v1/auth/logout',
    {
      config: { tradeListUnaffected: true },
      schema: { tags: ['auth'], body: RefreshBody, response: okResponse(z.null()) },
    },
    async (request) => {
      const header = request.headers.authorization;
      const sid = header?.startsWith('Bearer ')
        ? await deps.tokens.verify(header.slice(7).trim()).then(
            (c) => c.sid,
            () => undefined,
          )
        : undefined;
      await logout(db, request.body.refreshToken, sid);
      return ok(null);
    },
  );

  app.post(
    '/api/v1/auth/find-phone',
    { schema: { tags: ['auth'], body: FindPhoneBody, response: okResponse(FindPhoneOut) } },
    async (request) => {
      await limits.lookupPerIp.consume(request.ip);
      return ok(await findPhone(db, request.body.id));
    },
  );

  // SPEC §3: resetTicket and expiresInSec at the top level as well as inside returnData.
  const TicketEnvelope = envelopeOf(ResetTicketOut).extend(ResetTicketOut.shape);
  app.post(
    '/api/v1/auth/verify-reset-password',
    { schema: { tags: ['auth'], body: VerifyResetBody, response: { 200: TicketEnvelope } } },
    async (request) => {
      await limits.lookupPerIp.consume(request.ip);
      const ticket = await verifyReset(db, request.body, deps.config.sms.maxTries);
      return { ...ok(ticket), ...ticket };
    },
  );

  app.post(
    '/api/v1/auth/reset-password',
    { schema: { tags: ['auth'], body: ResetPasswordBody, response: okResponse(z.null()) } },
    async (request) => {
      await resetPassword(db, request.body);
      return ok(null);
    },
  );

  app.post(
    '/api/v1/members/signup',
    { schema: { tags: ['members'], body: SignupBody, response: okResponse(SignupOut, 201) } },
    async (request, reply) => reply.code(201).send(ok(await signup(db, request.body))),
  );

  app.post(
    '/api/v1/members/check-id',
    { schema: { tags: ['members'], body: CheckIdBody, response: okResponse(AvailabilityOut) } },
    async (request) => {
      await limits.lookupPerIp.consume(request.ip);
      return ok({ available: await loginIdAvailable(db, request.body.loginId) });
    },
  );

  app.post(
    '/api/v1/members/check-nickname',
    { schema: { tags: ['members'], body: CheckNicknameBody, response: okResponse(AvailabilityOut) } },
    async (request) => {
      await limits.lookupPerIp.consume(request.ip);
      return ok({ available: await nicknameAvailable(db, request.body.nickname) });
    },
  );

  // The guard runs onRequest, before body validation: a visitor gets 401, never a field list.
  app.get(
    '/my',
    { onRequest: deps.guards.requireMember, schema: { tags: ['my'], response: okResponse(Profile) } },
    async (request) => ok(await getProfile(db, memberIdOf(request))),
  );

  app.put(
    '/my',
    {
      onRequest: deps.guards.requireMember,
      schema: { tags: ['my'], body: ModifyBody, response: okResponse(Profile) },
    },
    async (request) => ok(await modifyProfile(deps, memberIdOf(request), request.body, request.auth?.sid)),
  );

  registerSmsRoutes(app, { deps, limits, sms });
}
