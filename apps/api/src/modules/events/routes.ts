import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import type { FastifyZod } from '../../http/types.ts';
import type { EventHub } from './hub.ts';
import { deleteEventsOlderThan } from './repo.ts';

const LAST_EVENT_ID_RE = /^\d{1,15}$/;

/**
 * GET /api/v1/events (DECISIONS §12): Server-Sent Events for the signed-in member (bearer token in the
 * Authorization header). Events `order` {id, status}, `message` {orderId}, `notification` {id, kind,
 * orderId, listingId}, `transfer` {id, status} (a transfer created or changed, a deposit's confirmations
 * included; DECISIONS §17), for operators also `ops` {kind, orderId | listingId}; every event has an `id:`
 * and a reconnect with `Last-Event-ID` replays what came after it (or sends `reset`). A comment line
 * every EVENTS_HEARTBEAT_SEC keeps proxies from closing an idle stream. A malformed Last-Event-ID is
 * 400 VALIDATION_FAILED before the stream opens.
 */
export function registerEventRoutes(app: FastifyZod, deps: AppDeps, hub: EventHub): void {
  app.get(
    '/api/v1/events',
    {
      preHandler: deps.guards.requireMember,
      schema: {
        tags: ['trade-room'],
        summary: 'Live events of the signed-in member (text/event-stream)',
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      if (!auth) throw new AppError('UNAUTHORIZED');
      const raw = request.headers['last-event-id'];
      let lastEventId: number | null = null;
      if (typeof raw === 'string' && raw !== '') {
        if (!LAST_EVENT_ID_RE.test(raw)) {
          throw new AppError('VALIDATION_FAILED', { fields: { 'last-event-id': 'INVALID_FORMAT' } });
        }
        lastEventId = Number(raw);
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // nginx and similar proxies would otherwise hold the stream in their buffers
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      res.flushHeaders();
      res.write('retry: 3000\n\n');
      await hub.open(res, {
        memberId: auth.memberId,
        operator: auth.role === 'OPERATOR',
        lastEventId,
        maxAgeMs: Math.max(60, deps.config.accessTokenTtlSec) * 1000,
      });
    },
  );
}

/**
 * Drops live events older than EVENTS_BACKLOG_SEC (the resumable backlog is bounded in time; a client
 * further behind gets `reset`). Safe on every instance at once. Returns the rows removed.
 */
export async function pruneEvents(deps: AppDeps): Promise<number> {
  return deleteEventsOlderThan(deps.db, deps.config.tradeRoom.backlogSec);
}
