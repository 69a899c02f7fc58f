import multipart from '@fastify/multipart';
import {
  idParam,
  KYC_DOC_MAX_BYTES,
  kycDocumentView,
  kycIdentityBody,
  kycIdentityStarted,
  kycStatus,
  kycVerifyBody,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { readFilePart } from '../../http/upload.ts';
import { makeLimit } from '../identity/index.ts';
import { type DocKey, resolveDocKey } from './doc-key.ts';
import { assertMayUpload, documentImage, myDocument, uploadDocument } from './documents.ts';
import { type IdentityCheckContext, startIdentityCheck, verifyIdentityCheck } from './identity-check.ts';
import { kycLevelAndHold, verifiedNameOf } from './levels.ts';
import { createIdentityProvider } from './provider.ts';

const tags = ['kyc'];

/** The identity check's context: the provider (refusing to start when unusable) and the per-member budgets. */
function identityContext(app: FastifyZod, deps: AppDeps): IdentityCheckContext {
  const k = deps.config.kyc;
  return {
    db: deps.db,
    provider: createIdentityProvider(deps.config, deps.redis, app.log),
    codeTtlSec: deps.config.sms.codeTtlSec,
    requestsPerMember: makeLimit(
      { name: 'kyc-request', points: k.requestsPerHour, durationSec: 3600 },
      deps.redis,
      'p2p:rl',
    ),
    verifiesPerMember: makeLimit(
      { name: 'kyc-verify', points: k.verifyPerHour, durationSec: 3600 },
      deps.redis,
      'p2p:rl',
    ),
  };
}

/**
 * The verification center's calls (DECISIONS §19): GET /api/v1/kyc, the identity check (request, verify),
 * the ID document upload (multipart `file`, JPEG/PNG by content, 10 MB, re-encoded and sealed) and the
 * operator's view of a document's image (GET /ops/api/v1/kyc/{id}/image, binary, so beside these rather than
 * in the envelope-only operator API; it runs the operator guard itself). Throws at registration, refusing to
 * start, when the identity provider or the document key is unusable.
 */
export default async function kycRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const ctx = identityContext(app, deps);
  const key = resolveDocKey(deps.config);
  registerStatusRoute(app, deps);
  registerIdentityRoutes(app, deps, ctx);
  await app.register(multipart, { limits: { fileSize: KYC_DOC_MAX_BYTES, files: 1, fields: 0, parts: 2 } });
  registerDocumentRoutes(app, deps, key);
}

/** GET /api/v1/kyc: the verification center's view. */
function registerStatusRoute(app: FastifyZod, deps: AppDeps): void {
  const { db, guards } = deps;
  app.get(
    '/api/v1/kyc',
    {
      onRequest: guards.requireMember,
      config: {
        operation: { operationId: 'getKycStatus', summary: 'The caller’s identity level and next step.' },
      },
      schema: { tags, response: okResponse(kycStatus) },
    },
    async (request) => {
      const memberId = memberIdOf(request);
      const [{ level, purchaseHeldUntil }, verifiedName, document] = await Promise.all([
        kycLevelAndHold(db, memberId, deps.config.trust.holds),
        verifiedNameOf(db, memberId),
        myDocument(db, memberId),
      ]);
      const { tradeLevel, level1DailyKrw } = deps.config.kyc;
      return ok({ level, verifiedName, document, tradeLevel, level1DailyKrw, purchaseHeldUntil });
    },
  );
}

/** The identity check (request, verify). */
function registerIdentityRoutes(app: FastifyZod, deps: AppDeps, ctx: IdentityCheckContext): void {
  const { guards } = deps;

  app.post(
    '/api/v1/kyc/identity',
    {
      onRequest: guards.requireMember,
      config: { tradeListUnaffected: true },
      schema: { tags, body: kycIdentityBody, response: okResponse(kycIdentityStarted) },
    },
    async (request) => ok(await startIdentityCheck(ctx, memberIdOf(request), request.body, request.log)),
  );

  app.post(
    '/api/v1/kyc/identity/verify',
    {
      onRequest: guards.requireMember,
      config: { tradeListUnaffected: true },
      schema: { tags, body: kycVerifyBody, response: okResponse(z.object({ level: z.number().int() })) },
    },
    async (request) =>
      ok(await verifyIdentityCheck(ctx, memberIdOf(request), request.body.code, request.log)),
  );
}

/** The ID document upload and the operator's view of its image. */
function registerDocumentRoutes(app: FastifyZod, deps: AppDeps, key: DocKey): void {
  const { db, guards } = deps;
  const uploads = makeLimit(
    { name: 'kyc-document', points: deps.config.kyc.documentsPerDay, durationSec: 86_400 },
    deps.redis,
    'p2p:rl',
  );
  app.post(
    '/api/v1/kyc/documents',
    {
      onRequest: guards.requireMember,
      config: { tradeListUnaffected: true },
      schema: { tags, response: okResponse(kycDocumentView) },
    },
    async (request) => {
      const memberId = memberIdOf(request);
      await assertMayUpload(db, memberId, uploads);
      return ok(await uploadDocument(db, key, memberId, await readFilePart(request, KYC_DOC_MAX_BYTES)));
    },
  );

  app.get(
    '/ops/api/v1/kyc/:id/image',
    {
      onRequest: guards.requireOperator,
      config: {
        operation: {
          operationId: 'opsKycDocumentImage',
          summary: 'The decrypted image of an ID document (viewing is audited).',
          errors: ['NOT_FOUND'],
        },
      },
      schema: { tags: ['ops'], params: z.object({ id: idParam }) },
    },
    async (request, reply) => {
      const img = await documentImage(db, key, request.params.id, memberIdOf(request));
      return reply
        .header('content-type', img.contentType)
        .header(
          'content-disposition',
          `inline; filename="kyc-${request.params.id}.${img.contentType === 'image/png' ? 'png' : 'jpg'}"`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(img.bytes);
    },
  );
}
