import { type Page, pageOf, type TradeListing, type TradeListQuery, tradeListing } from '@p2p/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/client.ts';
import { listenChannel } from '../../db/listen.ts';
import { AnswerCache, sendAnswer } from '../../http/answer-cache.ts';
import { ok, okResponse } from '../../http/envelope.ts';

/** The channel the 013_trade_list_notify.sql triggers notify on when anything on a trade-list card changes. */
export const TRADE_LIST_CHANNEL = 'trade_list';
/** Distinct queries kept (coin x sort x size x cursor); the first pages are the ones that matter. */
const MAX_ENTRIES = 500;

const answerSchema = okResponse(pageOf(tradeListing))[200];

export interface TradeListCache {
  /** Answers GET /api/v1/sell-listings from the cache, loading the page with `load` on a miss. */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    q: TradeListQuery,
    load: () => Promise<Page<TradeListing>>,
  ): Promise<FastifyReply>;
  readonly cache: AnswerCache;
  /**
   * The payload of the last notification this instance's listener handled. Notifications of committed transactions
   * arrive in commit order, so once a payload sent after some writes is seen here, every notice of those writes has
   * dropped the cache too (what the cross-instance tests wait on instead of sleeping).
   */
  readonly lastNotice: string | undefined;
}

/** The cache key: the query as the list reads it (coin filter, sort, size, cursor), whatever its spelling. */
export function tradeListKey(q: TradeListQuery): string {
  return `${q.coin ?? 'ALL'}|${q.sort}|${q.size}|${q.cursor ?? ''}`;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route never changes what a trade-list card shows (no listing, track record or seller name or status), so
     * its requests need not drop this instance's trade list cache (a purchase's phone check is two such
     * POSTs). Marking a route wrongly costs only a read of the old list on this instance until the change's
     * notification arrives, milliseconds later.
     */
    tradeListUnaffected?: boolean;
  }
}

/** Requests that may change data: after one of them this instance drops its cache before it answers. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The public trade list's shared answer cache. The list is the same for every caller (no token is read,
 * no field depends on who asks), so each instance keeps the serialized answer of each query for at most
 * TRADE_LIST_CACHE_MS and drops all of them the moment any instance commits a change to what a card shows: the
 * triggers of 013_trade_list_notify.sql NOTIFY on sell_listings (orders, cancels, expiry, review, pause), on
 * seller_stats (the track record) and on a member's status or public names (suspension). While this instance's
 * listener is down it does not cache at all; when the listener comes back everything is dropped (what it missed).
 * The notification reaches the writer's own instance a moment after its commit too, so every request other than a
 * read also drops this instance's cache before its answer leaves (a root onSend hook): whoever changed something
 * and asks the same instance again sees the change; routes marked `tradeListUnaffected` are left out. `app` must be
 * the root instance.
 */
export async function startTradeListCache(
  app: FastifyInstance,
  dbh: DbHandle,
  config: Config,
): Promise<TradeListCache> {
  let listening: { live: boolean } = { live: false };
  let lastNotice: string | undefined;
  const cache = new AnswerCache({
    maxAgeMs: config.tradeListCacheMs,
    maxEntries: MAX_ENTRIES,
    usable: () => listening.live,
  });
  if (config.tradeListCacheMs > 0) {
    const listener = await listenChannel(dbh, TRADE_LIST_CHANNEL, app.log, {
      onMessage: (payload) => {
        cache.invalidate();
        lastNotice = payload;
      },
      onReconnect: () => cache.invalidate(),
      onLost: () => cache.invalidate(),
    });
    listening = listener;
    app.addHook('onClose', () => listener.close());
    app.addHook('onSend', async (request) => {
      if (!READS.has(request.method) && !request.routeOptions.config.tradeListUnaffected) cache.invalidate();
    });
  }
  return {
    cache,
    get lastNotice() {
      return lastNotice;
    },
    async send(request, reply, q, load) {
      const answer = await cache.get(tradeListKey(q), async () =>
        // What the route's serializer would write: the envelope through its schema, then JSON.
        JSON.stringify(z.encode(answerSchema, ok(await load()))),
      );
      return sendAnswer(request, reply, answer);
    },
  };
}
