import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A serialized answer and its ETag (a hash of the body: the same on every instance that holds it). */
export interface CachedAnswer {
  body: string;
  etag: string;
}

export function answerOf(body: string): CachedAnswer {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

export interface AnswerCacheOptions {
  /** Hard age limit of an entry (ms), counted from when its query started; 0 turns the cache off. */
  maxAgeMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries: number;
  /** False while invalidations cannot arrive (the listener is down): every call then loads. */
  usable?: () => boolean;
  now?: () => number;
}

interface Entry {
  generation: number;
  at: number;
  answer: CachedAnswer;
}

/**
 * An in-process cache of serialized public answers, the same for every caller. `invalidate()` (called
 * when the database says the data changed) drops everything at once; `maxAgeMs` bounds how long an entry lives if
 * an invalidation is lost. Concurrent misses of one key share one load (single flight). A load that started before
 * an invalidation still answers the requests that were waiting for it (they were concurrent with the change) but
 * is not kept, and requests after the invalidation start a new load. Errors are never kept.
 */
export class AnswerCache {
  private generation = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Promise<CachedAnswer>>();
  private readonly now: () => number;
  /** Counters for tests and metrics: answers from memory, loads, loads joined by a concurrent miss. */
  readonly stats = { hits: 0, loads: 0, joined: 0, invalidations: 0 };

  constructor(private readonly opts: AnswerCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  invalidate(): void {
    this.generation++;
    this.stats.invalidations++;
    this.entries.clear();
    this.flights.clear();
  }

  async get(key: string, load: () => Promise<string>): Promise<CachedAnswer> {
    if (this.opts.maxAgeMs <= 0 || (this.opts.usable && !this.opts.usable())) {
      this.stats.loads++;
      return answerOf(await load());
    }
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && at - hit.at < this.opts.maxAgeMs) {
      this.stats.hits++;
      return hit.answer;
    }
    const flight = this.flights.get(key);
    if (flight) {
      this.stats.joined++;
      return flight;
    }
    const generation = this.generation;
    this.stats.loads++;
    const p = load().then((body) => {
      const answer = answerOf(body);
      if (generation === this.generation) {
        this.entries.delete(key);
        this.entries.set(key, { generation, at, answer });
        if (this.entries.size > this.opts.maxEntries) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
      }
      return answer;
    });
    this.flights.set(key, p);
    const forget = () => {
      if (this.flights.get(key) === p) this.flights.delete(key);
    };
    p.then(forget, forget);
    return p;
  }
}

/** True when the request's If-None-Match names `etag` (weak or strong, one of a list, or `*`). */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Sends a cached JSON answer as it is (no second serialization) with its ETag, or 304 when the client already
 * holds it. `no-cache`: a browser or proxy may keep it but asks again each time, since the answer changes with
 * every order and only this server hears of it (DECISIONS §13: public answers only).
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', 'public, no-cache');
  if (matchesEtag(request, answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
