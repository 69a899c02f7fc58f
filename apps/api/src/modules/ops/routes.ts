import {
  idParam,
  opsAuditEntry,
  opsAuditQuery,
  opsLedgerCheck,
  opsMember,
  opsMemberDetail,
  opsMembersQuery,
  opsSummary as opsSummarySchema,
  opsSuspendBody,
  opsTotpConfirmBody,
  opsTotpEnrollment,
  opsTotpStatus,
  opsUnsuspendBody,
  pageOf,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { checkLedger } from '../../ledger/check.ts';
import { suspendMember, unsuspendMember } from './members.ts';
import { listAuditLog, listMembers, memberDetail, opsSummary } from './queries.ts';
import { confirmTotp, enrollTotp, totpStatus } from './totp.ts';

const IdParams = z.object({ id: idParam });

/**
 * The ops module's part of the operator API (DECISIONS §8, §10): members and their suspension, the audit
 * log, the ledger check, the console summary and the operator's TOTP. Role OPERATOR only; members get 403 FORBIDDEN.
 */
export default async function opsRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const guard = { preHandler: deps.guards.requireOperator };
  const tags = ['ops'];
  const security = [{ bearer: [] }];

  app.get(
    '/ops/api/v1/members',
    {
      ...guard,
      schema: { tags, security, querystring: opsMembersQuery, response: okResponse(pageOf(opsMember)) },
    },
    async (request) => ok(await listMembers(deps.db, request.query)),
  );

  app.get(
    '/ops/api/v1/members/:id',
    { ...guard, schema: { tags, security, params: IdParams, response: okResponse(opsMemberDetail) } },
    async (request) => ok(await memberDetail(deps.db, request.params.id)),
  );

  app.post(
    '/ops/api/v1/members/:id/suspend',
    {
      ...guard,
      schema: { tags, security, params: IdParams, body: opsSuspendBody, response: okResponse(opsMember) },
    },
    async (request) =>
      ok(await suspendMember(deps.db, memberIdOf(request), request.params.id, request.body.reason)),
  );

  app.post(
    '/ops/api/v1/members/:id/unsuspend',
    {
      ...guard,
      schema: { tags, security, params: IdParams, body: opsUnsuspendBody, response: okResponse(opsMember) },
    },
    async (request) =>
      ok(await unsuspendMember(deps.db, memberIdOf(request), request.params.id, request.body?.reason)),
  );

  app.get(
    '/ops/api/v1/audit-log',
    {
      ...guard,
      schema: { tags, security, querystring: opsAuditQuery, response: okResponse(pageOf(opsAuditEntry)) },
    },
    async (request) => ok(await listAuditLog(deps.db, request.query)),
  );

  app.get(
    '/ops/api/v1/ledger/check',
    { ...guard, schema: { tags, security, response: okResponse(opsLedgerCheck) } },
    async () => ok(await checkLedger(deps.db, deps.invariants)),
  );

  app.get(
    '/ops/api/v1/summary',
    { ...guard, schema: { tags, security, response: okResponse(opsSummarySchema) } },
    async () => ok(await opsSummary(deps.db)),
  );

  // The signed-in operator's own second factor (DECISIONS §13); resetting it is the CLI's job.
  app.get(
    '/ops/api/v1/totp',
    { ...guard, schema: { tags, security, response: okResponse(opsTotpStatus) } },
    async (request) => ok(await totpStatus(deps.db, memberIdOf(request))),
  );

  app.post(
    '/ops/api/v1/totp/enroll',
    { ...guard, schema: { tags, security, response: okResponse(opsTotpEnrollment) } },
    async (request) => ok(await enrollTotp(deps, memberIdOf(request))),
  );

  app.post(
    '/ops/api/v1/totp/confirm',
    { ...guard, schema: { tags, security, body: opsTotpConfirmBody, response: okResponse(opsTotpStatus) } },
    async (request) => ok(await confirmTotp(deps, memberIdOf(request), request.body.code)),
  );
}
