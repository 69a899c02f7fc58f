import {
  AVAILABILITY_MOVES,
  type AvailabilityMove,
  idParam,
  nextListingStatus,
  sellListingDetail,
} from '@p2p/contract';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { lockListing, setListingStatus } from './repo.ts';
import { listingDetail } from './service.ts';

/**
 * The seller's "자리 비움" (DECISIONS §4, §12): pause = OPEN -> PAUSED (the listing leaves the trade list
 * and takes no orders; its escrow and live orders stay), resume = PAUSED -> OPEN, as the contract's
 * LISTING_TRANSITIONS says. Owner only: another member's listing is 404 LISTING_NOT_FOUND; any other state
 * 409 INVALID_STATE.
 */
export async function pauseOrResumeListing(
  db: Db,
  sellerId: number,
  listingId: number,
  move: AvailabilityMove,
) {
  return inTx(db, async (tx) => {
    const l = await lockListing(tx, listingId, sellerId);
    if (!l) throw new AppError('LISTING_NOT_FOUND');
    const to = nextListingStatus(l.status, move);
    if (to === null) throw new AppError('INVALID_STATE');
    await setListingStatus(tx, l.id, to);
    return listingDetail(tx, l.id, sellerId);
  });
}

/**
 * POST /api/v1/sell-listings/{id}/pause and /resume, registered with the trade room (trade-room/routes.ts)
 * where DECISIONS §12 puts them.
 */
export function registerPauseRoutes(app: FastifyZod, deps: AppDeps): void {
  for (const move of AVAILABILITY_MOVES) {
    app.post(
      `/api/v1/sell-listings/:id/${move}`,
      {
        preHandler: deps.guards.requireMember,
        schema: {
          tags: ['market'],
          security: [{ bearer: [] }],
          summary: move === 'pause' ? 'Pauses the seller’s listing (자리 비움)' : 'Resumes a paused listing',
          params: z.object({ id: idParam }),
          response: okResponse(sellListingDetail),
        },
      },
      async (request) =>
        ok(await pauseOrResumeListing(deps.db, memberIdOf(request), request.params.id, move)),
    );
  }
}
