import { type Page, pageOf, type TradeListing, type TradeListQuery, tradeListing } from '@p2p/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listenChannel } from '../../db/listen.ts';
import type { AppDeps } from '../../deps.ts';
import { AnswerCache, sendAnswer } from '../../http/answer-cache.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';

/** The channel the 012_trade_list_notify.sql triggers notify on when anything on a trade-list card changes. */
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
}

/** The cache key: the query as the list reads it (coin filter, sort, size, cursor), whatever its spelling. */
export function tradeListKey(q: TradeListQuery): string {
  return `${q.coin ?? 'ALL'}|${q.sort}|${q.size}|${q.cursor ?? ''}`;
}

/**
 * The public trade list's shared answer cache (issue 15). The list is the same for every caller (no token is read,
 * no field depends on who asks), so each instance keeps the serialized answer of each query for at most
 * TRADE_LIST_CACHE_MS and drops all of them the moment any instance commits a change to what a card shows: the
 * triggers of 012_trade_list_notify.sql NOTIFY on sell_listings (orders, cancels, expiry, review, pause), on
 * seller_stats (the track record) and on a member's status or public names (suspension). While this instance's
 * listener is down it does not cache at all; when the listener comes back everything is dropped (what it missed).
 */
export async function startTradeListCache(app: FastifyZod, deps: AppDeps): Promise<TradeListCache> {
  let listening: { live: boolean } = { live: false };
  const cache = new AnswerCache({
    maxAgeMs: deps.config.tradeListCacheMs,
    maxEntries: MAX_ENTRIES,
    usable: () => listening.live,
  });
  if (deps.config.tradeListCacheMs > 0) {
    const listener = await listenChannel(deps.dbh, TRADE_LIST_CHANNEL, app.log, {
      onMessage: () => cache.invalidate(),
      onReconnect: () => cache.invalidate(),
      onLost: () => cache.invalidate(),
    });
    listening = listener;
    app.addHook('onClose', () => listener.close());
  }
  return {
    cache,
    async send(request, reply, q, load) {
      const answer = await cache.get(tradeListKey(q), async () =>
        // What the route's serializer would write: the envelope through its schema, then JSON.
        JSON.stringify(z.encode(answerSchema, ok(await load()))),
      );
      return sendAnswer(request, reply, answer);
    },
  };
}
