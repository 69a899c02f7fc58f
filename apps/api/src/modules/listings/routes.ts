import {
  idParam,
  myListQuery,
  mySellListing,
  pageOf,
  type StepUp,
  sellListingCreateBody,
  sellListingDetail,
  type TradeListQuery,
  tradeListing,
  tradeListQuery,
} from '@p2p/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import { publicCache } from '../../http/public-cache.ts';
import type { FastifyZod } from '../../http/types.ts';
import { assertPayoutAccount } from '../bank/index.ts';
import { blockedIdsOf } from '../blocks/index.ts';
import { requireStepUp } from '../identity/index.ts';
import { requireKycLevel } from '../kyc/index.ts';
import { startBestListingsJob } from './best-listings.ts';
import { registerEditRoute } from './edit.ts';
import { bestListings, mySellListings, tradeList } from './queries.ts';
import { closeListing, createListing, listingDetail } from './service.ts';

/** Seconds a browser or proxy may reuse GET /api/v1/sell-listings/best (a sold-out card fails at purchase). */
export const BEST_LISTINGS_MAX_AGE_SEC = 15;

const IdParams = z.object({ id: idParam });
const bearer = [{ bearer: [] }];

/** DECISIONS §19 then §13: the listing pays into the seller's verified account, and the seller stepped up. */
async function authorizeListing(
  deps: AppDeps,
  seller: number,
  terms: { bankName: string; accountNo: string },
  stepUp: StepUp | undefined,
): Promise<void> {
  await assertPayoutAccount(deps, seller, terms.bankName, terms.accountNo);
  await requireStepUp(deps, seller, stepUp);
}

/**
 * The sellers the caller of a public list blocks (DECISIONS §19), from a bearer token when one is sent; none for
 * a visitor or a token that does not verify (the list is public: a bad token is no reason to refuse it).
 */
async function blockedSellersOf(deps: AppDeps, authorization: string | undefined): Promise<number[]> {
  if (!authorization?.startsWith('Bearer ')) return [];
  const claims = await deps.tokens.verify(authorization.slice(7).trim()).catch(() => undefined);
  return claims ? blockedIdsOf(deps.db, claims.memberId) : [];
}

/**
 * GET /api/v1/sell-listings' answer. A signed-in caller who blocks sellers (DECISIONS §19) gets the list without
 * them, read apart from the shared cache (its answer is the same for everyone, so it never holds a filtered
 * page) and sent `no-store`; everyone else gets the cached answer as before.
 */
async function tradeListAnswer(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  q: TradeListQuery,
) {
  const blocked = await blockedSellersOf(deps, request.headers.authorization);
  if (blocked.length > 0) return reply.send(ok(await tradeList(deps.db, q, blocked)));
  return deps.tradeListCache.send(request, reply, q, () => tradeList(deps.db, q));
}

/**
 * GET /api/v1/sell-listings/best and its job. Public and the same for everyone: its own scope so the short
 * public cache and ETag stay off the member routes around it (DECISIONS §13). Its figures are the best listings
 * job's (issue 27), started here and stopped when the app closes.
 */
async function bestListingsRoute(pub: FastifyZod, deps: AppDeps): Promise<void> {
  pub.addHook('onClose', startBestListingsJob(deps.db, deps.config.bestListingsRefreshMs, pub.log));
  await publicCache(pub, BEST_LISTINGS_MAX_AGE_SEC);
  pub.get(
    '/api/v1/sell-listings/best',
    { schema: { tags: ['market'], response: okResponse(z.array(tradeListing)) } },
    async () => ok(await bestListings(deps.db)),
  );
}

/**
 * Routes of the listings module (SPEC §7, DECISIONS §4, §10): sell listings, the trade list, the seller's
 * own listings; the operator's listing calls in ops-routes.ts (registered with the operator API), the seller's
 * pause and resume in pause-routes.ts. Buy orders are the orders module's.
 */
export default async function listingRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const member = deps.guards.requireMember;
  app.post(
    '/api/v1/sell-listings',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: {
        tags: ['market'],
        security: bearer,
        body: sellListingCreateBody,
        response: okResponse(sellListingDetail),
      },
    },
    async (request) => {
      const seller = memberIdOf(request);
      // DECISIONS §19 then §13 (no step-up try spent below the level), before anything is held in escrow.
      const { stepUp, ...terms } = request.body;
      await requireKycLevel(db, seller, deps.config.kyc.tradeLevel);
      await authorizeListing(deps, seller, terms, stepUp);
      return ok(await createListing(db, seller, terms));
    },
  );

  app.get(
    '/api/v1/sell-listings',
    { schema: { tags: ['market'], querystring: tradeListQuery, response: okResponse(pageOf(tradeListing)) } },
    async (request, reply) => tradeListAnswer(deps, request, reply, request.query),
  );

  await app.register(bestListingsRoute, deps);

  app.post(
    '/api/v1/sell-listings/:id/close',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: {
        tags: ['market'],
        security: bearer,
        params: IdParams,
        response: okResponse(sellListingDetail),
      },
    },
    async (request) => ok(await closeListing(db, memberIdOf(request), request.params.id)),
  );

  registerEditRoute(app, deps);
  myListingRoutes(app, deps);
}

/** The seller's own listings: `/my/sell` (keyset pages) and `/my/sell/:id` (SPEC §3), owner-only (404 otherwise). */
function myListingRoutes(app: FastifyZod, deps: AppDeps): void {
  const { db } = deps;
  const member = deps.guards.requireMember;
  app.get(
    '/my/sell',
    {
      preHandler: member,
      schema: {
        tags: ['market'],
        security: bearer,
        querystring: myListQuery,
        response: okResponse(pageOf(mySellListing)),
      },
    },
    async (request) => ok(await mySellListings(db, memberIdOf(request), request.query)),
  );

  app.get(
    '/my/sell/:id',
    {
      preHandler: member,
      schema: {
        tags: ['market'],
        security: bearer,
        params: IdParams,
        response: okResponse(sellListingDetail),
      },
    },
    async (request) => ok(await listingDetail(db, request.params.id, memberIdOf(request))),
  );
}
