import { idParam, opsKycDocumentPage, opsKycQuery, opsKycRejectBody } from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { reviewDocument } from './documents.ts';
import { kycQueue } from './ops-queries.ts';

const IdParams = z.object({ id: idParam });
const Decided = z.object({ id: z.number().int(), status: z.enum(['APPROVED', 'REJECTED']) });

/**
 * The KYC review queue of the operator API (DECISIONS §19): GET /kyc?status=, POST /kyc/{id}/approve (the
 * member reaches level 2), POST /kyc/{id}/reject {reason}; each decision audited, one winner in a race.
 */
export function kycOpsRoutes(deps: AppDeps): OpsRouteFile {
  const { db } = deps;
  return (ops) => {
    ops.get('/kyc', {
      doc: {
        operationId: 'opsListKycDocuments',
        summary: 'ID documents by status, oldest first (at most 100).',
      },
      querystring: opsKycQuery,
      response: opsKycDocumentPage,
      handle: ({ query }) => kycQueue(db, query.status),
    });
    ops.post('/kyc/:id/approve', {
      doc: {
        operationId: 'opsApproveKycDocument',
        summary: 'Approves a pending ID document: its member reaches level 2.',
        errors: ['NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params: IdParams,
      response: Decided,
      handle: ({ operatorId, params }) =>
        reviewDocument(db, { id: params.id, operatorId, approve: true, reason: null }),
    });
    ops.post('/kyc/:id/reject', {
      doc: {
        operationId: 'opsRejectKycDocument',
        summary: 'Rejects a pending ID document with a reason the member sees.',
        errors: ['NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params: IdParams,
      body: opsKycRejectBody,
      response: Decided,
      handle: ({ operatorId, params, body }) =>
        reviewDocument(db, { id: params.id, operatorId, approve: false, reason: body.reason }),
    });
  };
}
