import {
  idParam,
  opsListing,
  opsListingsQuery,
  opsReasonBody,
  pageOf,
  sellListingDetail,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { opsListings } from './ops-queries.ts';
import { approveListing, rejectListing } from './service.ts';

const IdParams = z.object({ id: idParam });
const security = [{ bearer: [] }];
const tags = ['ops'];

/**
 * Operator routes of the listings (DECISIONS §8, §10), role OPERATOR (members get 403): the listings of any
 * status, pending listings approved or rejected with a reason. Every action is audited in its transaction.
 */
export default async function opsListingRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const preHandler = deps.guards.requireOperator;

  app.get(
    '/ops/api/v1/listings',
    {
      preHandler,
      schema: { tags, security, querystring: opsListingsQuery, response: okResponse(pageOf(opsListing)) },
    },
    async (request) => ok(await opsListings(db, request.query)),
  );

  app.post(
    '/ops/api/v1/listings/:id/approve',
    {
      config: { idempotent: true },
      preHandler,
      schema: { tags, security, params: IdParams, response: okResponse(sellListingDetail) },
    },
    async (request) => ok(await approveListing(db, memberIdOf(request), request.params.id)),
  );

  app.post(
    '/ops/api/v1/listings/:id/reject',
    {
      config: { idempotent: true },
      preHandler,
      schema: {
        tags,
        security,
        params: IdParams,
        body: opsReasonBody,
        response: okResponse(sellListingDetail),
      },
    },
    async (request) =>
      ok(await rejectListing(db, memberIdOf(request), request.params.id, request.body.reason)),
  );
}
