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
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { opsListings } from './ops-queries.ts';
import { approveListing, rejectListing } from './service.ts';

const params = z.object({ id: idParam });

/**
 * Operator routes of the listings (DECISIONS §8, §10), under the operator API's guard: the listings of any
 * status, pending listings approved or rejected with a reason. Every action is audited in its transaction.
 */
export function listingOpsRoutes({ db }: AppDeps): OpsRouteFile {
  return (ops) => {
    ops.get('/listings', {
      doc: { operationId: 'opsListListings', summary: 'Lists listings by status for review, oldest first.' },
      querystring: opsListingsQuery,
      response: pageOf(opsListing),
      handle: ({ query }) => opsListings(db, query),
    });

    ops.post('/listings/:id/approve', {
      doc: {
        operationId: 'opsApproveListing',
        summary: 'Approves a pending listing: it opens on the trade list.',
        errors: ['LISTING_NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      response: sellListingDetail,
      handle: ({ operatorId, params }) => approveListing(db, operatorId, params.id),
    });

    ops.post('/listings/:id/reject', {
      doc: {
        operationId: 'opsRejectListing',
        summary: 'Rejects a pending listing with a reason; its escrow returns to the seller.',
        errors: ['LISTING_NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: opsReasonBody,
      response: sellListingDetail,
      handle: ({ operatorId, params, body }) => rejectListing(db, operatorId, params.id, body.reason),
    });
  };
}
