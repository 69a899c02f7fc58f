import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';

/**
 * Makes every successful answer of this plugin scope publicly cacheable for `maxAgeSec` seconds with an ETag
 * (a repeat with If-None-Match gets 304). Only for answers that are the same for every caller (DECISIONS §13:
 * prices, best listings); errors keep the no-store default of app.ts so a failure is never reused.
 */
export async function publicCache(scope: FastifyInstance, maxAgeSec: number): Promise<void> {
  // fastify-plugin: the ETag hook applies to this scope only, not to the caller-specific routes around it.
  await scope.register(etag, { weak: true });
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 200 || reply.statusCode === 304)
      reply.header('cache-control', `public, max-age=${maxAgeSec}`);
    return payload;
  });
}
