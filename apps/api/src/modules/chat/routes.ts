import multipart from '@fastify/multipart';
import {
  CHAT_IMAGE_MAX_BYTES,
  cursorField,
  idParam,
  orderMessage,
  orderMessageBody,
  orderMessagePage,
  orderMessageParams,
} from '@p2p/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { readFilePart } from '../../http/upload.ts';
import { makeLimit } from '../identity/index.ts';
import {
  type ChatCaller,
  chatAccess,
  imageOf,
  listMessages,
  postImage,
  postText,
  reencodeImage,
} from './service.ts';

const bearer = [{ bearer: [] }];
const tags = ['trade-room'];
const IdParams = z.object({ id: idParam });
const EXT = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as Record<string, string>;

function callerOf(request: FastifyRequest): ChatCaller {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return { memberId: request.auth.memberId, operator: request.auth.role === 'OPERATOR' };
}

/**
 * The order chat (DECISIONS §12): list (oldest first, 50 a page), post text, post an image (multipart
 * field `file`: JPEG, PNG or WebP, at most 5 MB, re-encoded without metadata) and fetch an image. Parties
 * and operators only (404 ORDER_NOT_FOUND otherwise); per-member limits CHAT_MESSAGES_PER_MIN and
 * CHAT_IMAGES_PER_HOUR (429 RATE_LIMITED). Nothing is stored for a refused post.
 */
export async function registerChatRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const member = deps.guards.requireMember;
  const prefix = 'p2p:rl';
  const textLimit = makeLimit(
    { name: 'chat-text', points: deps.config.tradeRoom.messagesPerMin, durationSec: 60 },
    deps.redis,
    prefix,
  );
  const imageLimit = makeLimit(
    { name: 'chat-image', points: deps.config.tradeRoom.imagesPerHour, durationSec: 3600 },
    deps.redis,
    prefix,
  );
  // Multipart only for the image route of this plugin scope; the 64 KB JSON body limit stays elsewhere.
  await app.register(multipart, {
    limits: { fileSize: CHAT_IMAGE_MAX_BYTES, files: 1, fields: 0, parts: 2, headerPairs: 100 },
  });

  app.get(
    '/buy-orders/:id/messages',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'The order chat, oldest first',
        params: IdParams,
        querystring: z.object({ cursor: cursorField.optional() }),
        response: okResponse(orderMessagePage),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const access = await chatAccess(db, request.params.id, caller);
      return ok(await listMessages(db, access, caller.memberId, request.query.cursor));
    },
  );

  app.post(
    '/buy-orders/:id/messages',
    {
      config: { tradeListUnaffected: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Posts a text message to the order chat',
        params: IdParams,
        body: orderMessageBody,
        response: okResponse(orderMessage),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const access = await chatAccess(db, request.params.id, caller);
      if (!access.writable) throw new AppError('CHAT_CLOSED');
      await textLimit.consume(String(caller.memberId));
      return ok(await postText(db, access, caller.memberId, request.body.text));
    },
  );

  app.post(
    '/buy-orders/:id/messages/image',
    {
      config: { tradeListUnaffected: true },
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'Posts an image (multipart field file: JPEG, PNG or WebP, at most 5 MB)',
        params: IdParams,
        response: okResponse(orderMessage),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const access = await chatAccess(db, request.params.id, caller);
      if (!access.writable) throw new AppError('CHAT_CLOSED');
      const bytes = await readFilePart(request, CHAT_IMAGE_MAX_BYTES);
      await imageLimit.consume(String(caller.memberId));
      const clean = await reencodeImage(bytes);
      return ok(await postImage(db, access, caller.memberId, clean));
    },
  );

  app.get(
    '/buy-orders/:id/messages/:messageId/image',
    {
      preHandler: member,
      schema: {
        tags,
        security: bearer,
        summary: 'The re-encoded image of a chat message',
        params: orderMessageParams,
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const access = await chatAccess(db, request.params.id, caller);
      const img = await imageOf(db, access, request.params.messageId);
      const name = `order-${access.orderId}-${request.params.messageId}.${EXT[img.contentType] ?? 'bin'}`;
      return reply
        .header('content-type', img.contentType)
        .header('content-disposition', `inline; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${img.sha256}"`)
        .send(img.bytes);
    },
  );
}
