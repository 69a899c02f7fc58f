import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { inTx } from '../db/tx.ts';
import { AppError } from '../errors/index.ts';
import { memberIdOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** DECISIONS §15: the route accepts an Idempotency-Key header (http/idempotency.ts). */
    idempotent?: boolean;
  }
}

/** 1-64 of [A-Za-z0-9_-] (DECISIONS §15); a UUID made by the client fits. */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** How long a key answers with its first answer (DECISIONS §15). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * A row still IN_PROGRESS after this long belongs to a request whose process died (or whose answer could not
 * be stored): a retry may then take it over. Every idempotent call finishes in well under a second.
 */
export const IDEMPOTENCY_STALE_SEC = 60;
/** At most one sweep of every caller's expired rows per process in this interval. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** Step-up secrets prove who asks, not what is asked: never hashed (a fast hash would expose them). */
const SECRET_FIELDS = new Set(['stepUp', 'password', 'currentPassword', 'code', 'totpCode']);
/**
 * Refusals of those secrets: as the secrets are not part of the request hash, a retry with the right password
 * under the same key must run, not replay the refusal. Like a 5xx or a 429, they are never stored.
 */
const SECRET_REFUSALS = new Set([
  'INVALID_CREDENTIALS',
  'STEP_UP_REQUIRED',
  'CODE_EXPIRED',
  'CODE_MISMATCH',
  'CODE_TRIES_EXCEEDED',
]);

const headers = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_RE, 'INVALID_FORMAT')
    .optional()
    .describe(
      'DECISIONS §15: 1-64 of [A-Za-z0-9_-], made by the client per submit and kept across its retries. ' +
        'A repeat with the same body answers the first answer (header idempotent-replayed: true); another ' +
        'body is 422 IDEMPOTENCY_KEY_REUSED; while the first runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS. Kept 24 h, ' +
        'and only for a success or a 409/422 refusal (DECISIONS §21); a new key beyond ' +
        'IDEMPOTENCY_MAX_PER_MEMBER_DAY keys in 24 h is 429 RATE_LIMITED.',
    ),
});

interface Claim {
  callerId: number;
  key: string;
}

interface StoredRow {
  request_hash: string;
  status: 'IN_PROGRESS' | 'DONE';
  response_status: number | null;
  response_body: string | null;
}

/** JSON with keys sorted at every level, bigint as decimal text, secrets left out: one text per request. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortValue(value));
}

function sortValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(sortValue);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      if (!SECRET_FIELDS.has(k)) out[k] = sortValue((value as Record<string, unknown>)[k]);
    }
    return out;
  }
  return value;
}

/** sha256 (hex) of the method, the route, its parsed params and its parsed body. */
function requestHash(request: FastifyRequest): string {
  const text = `${request.method} ${request.routeOptions.url ?? request.url} ${canonicalJson({
    params: request.params ?? null,
    body: request.body ?? null,
  })}`;
  return createHash('sha256').update(text).digest('hex');
}

/**
 * DECISIONS §21 (Stripe's rule): only an answer the handler gave is kept, and only a success or the handler's own
 * 409/422 refusal (a state it found, which a retry would find again). A 400 (the request was wrong and may be
 * corrected under the same key), 401, 403, 404, 429 and 5xx are not kept, nor a refused step-up secret (the
 * secret is not part of the request hash, so a retry with the right one must run).
 */
function worthReplaying(status: number, payload: string): boolean {
  if (status >= 200 && status < 300) return true;
  if (status !== 409 && status !== 422) return false;
  try {
    const code = (JSON.parse(payload) as { returnMessage?: unknown }).returnMessage;
    return !(typeof code === 'string' && SECRET_REFUSALS.has(code));
  } catch {
    return false;
  }
}

const toArray = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/** Limits of the idempotency records (DECISIONS §21). */
export interface IdempotencyOptions {
  /** Keys one caller may hold within 24 h (IDEMPOTENCY_MAX_PER_MEMBER_DAY); a new key beyond is 429. */
  maxPerMemberDay: number;
}

/**
 * Idempotent money moves (DECISIONS §15, §21), built once: every route registered after this call with
 * `config: { idempotent: true }` accepts an optional `Idempotency-Key` header (malformed: 400 VALIDATION_FAILED
 * {fields: {idempotency-key: INVALID_FORMAT}}). The key is scoped to the signed-in caller (the route's guard runs
 * first, so a 401 never reaches a key) and stored in `idempotency_keys` under the primary key (caller, key):
 * - the first request inserts the row IN_PROGRESS and runs; its answer is stored when it is a success or the
 *   handler's own 409/422 refusal (see worthReplaying); any other answer removes the row, so a retry runs;
 * - a caller already holding `maxPerMemberDay` keys of the last 24 h gets 429 RATE_LIMITED {retryAfterSec} for a
 *   new key (a repeat of a kept key still answers); parallel claims of one caller are counted one by one;
 * - a repeat with the same method, route, params and body gets the stored status and body back, changing nothing;
 * - the same key with another request: 422 IDEMPOTENCY_KEY_REUSED;
 * - a repeat while the first still runs: 409 IDEMPOTENCY_KEY_IN_PROGRESS (the IETF idempotency-key draft's
 *   answer; nothing waits on a lock), unless the row is older than IDEMPOTENCY_STALE_SEC (a dead process).
 * Rows older than 24 h are deleted when their caller next claims a key and by a sweep every 10 minutes.
 */
export function installIdempotency(app: FastifyInstance, db: Db, opts: IdempotencyOptions): void {
  const claims = new WeakMap<FastifyRequest, Claim>();
  const max = opts.maxPerMemberDay;
  let lastSweepMs = 0;
  const ttl = sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;

  async function sweep(callerId: number): Promise<void> {
    await sql`delete from idempotency_keys where caller_id = ${callerId} and created_at < ${ttl}`.execute(db);
    if (Date.now() - lastSweepMs < SWEEP_INTERVAL_MS) return;
    lastSweepMs = Date.now();
    await sql`delete from idempotency_keys where created_at < ${ttl}`.execute(db);
  }

  /**
   * Inserts the caller's claim of `key` unless the caller already holds `max` keys of the last 24 h. The
   * caller's member row is locked first (FOR NO KEY UPDATE, which foreign-key checks do not wait for), so the
   * count of a parallel claim, a later statement, sees this one's row: the cap holds exactly. The lock ends
   * with this short transaction, before the handler runs. `full`: the cap refused the insert.
   */
  async function insertClaim(callerId: number, key: string, hash: string) {
    return inTx(db, async (tx) => {
      await sql`select 1 from members where id = ${callerId} for no key update`.execute(tx);
      const r = await sql<{ held: number; inserted: boolean }>`with held as (
          select count(*)::int as n from (select 1 from idempotency_keys
            where caller_id = ${callerId} and created_at >= ${ttl} limit ${max}) kept),
        ins as (insert into idempotency_keys (caller_id, key, request_hash, status)
          select ${callerId}, ${key}, ${hash}, 'IN_PROGRESS' from held where held.n < ${max}
          on conflict do nothing returning caller_id)
        select (select n from held) as held, exists (select 1 from ins) as inserted`.execute(tx);
      const row = r.rows[0];
      return { inserted: Boolean(row?.inserted), full: Number(row?.held ?? 0) >= max };
    });
  }

  /** Seconds until the caller's oldest key expires and frees a place (at least 1). */
  async function secondsUntilFree(callerId: number): Promise<number> {
    const r = await sql<{ sec: number | null }>`select ceil(extract(epoch from
        min(created_at) + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}) - now()))::int as sec
      from idempotency_keys where caller_id = ${callerId}`.execute(db);
    return Math.max(1, Number(r.rows[0]?.sec ?? 1));
  }

  async function replay(reply: FastifyReply, row: StoredRow): Promise<FastifyReply> {
    reply
      .code(row.response_status ?? 500)
      .header('content-type', 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true');
    return reply.send(row.response_body);
  }

  const claimKey: preHandlerHookHandler = async function claimKey(request, reply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const callerId = memberIdOf(request);
    const hash = requestHash(request);
    await sweep(callerId);
    // Three rounds: the row can vanish between our insert and our read when its owner got a 5xx.
    for (let round = 0; round < 3; round++) {
      const claim = await insertClaim(callerId, key, hash);
      if (claim.inserted) {
        claims.set(request, { callerId, key });
        return;
      }
      const found = await sql<StoredRow>`select request_hash, status, response_status, response_body
        from idempotency_keys where caller_id = ${callerId} and key = ${key}`.execute(db);
      const row = found.rows[0];
      if (!row) {
        if (claim.full) {
          throw new AppError('RATE_LIMITED', { retryAfterSec: await secondsUntilFree(callerId) });
        }
        continue;
      }
      if (row.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (row.status === 'DONE') return replay(reply, row);
      const taken = await sql`update idempotency_keys set created_at = now()
        where caller_id = ${callerId} and key = ${key} and status = 'IN_PROGRESS'
          and created_at < now() - make_interval(secs => ${IDEMPOTENCY_STALE_SEC})
        returning caller_id`.execute(db);
      if (taken.rows.length > 0) {
        request.log.warn({ idempotencyKey: key }, 'took over an abandoned idempotency key');
        claims.set(request, { callerId, key });
        return;
      }
      throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS');
  };

  const storeAnswer: onSendHookHandler = async function storeAnswer(request, reply, payload) {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const keep = typeof payload === 'string' && worthReplaying(reply.statusCode, payload);
    try {
      if (keep) {
        await sql`update idempotency_keys set status = 'DONE', response_status = ${reply.statusCode},
          response_body = ${payload} where caller_id = ${claim.callerId} and key = ${claim.key}`.execute(db);
      } else {
        await sql`delete from idempotency_keys
          where caller_id = ${claim.callerId} and key = ${claim.key}`.execute(db);
      }
    } catch (err) {
      // The answer still goes out; the row stays IN_PROGRESS until IDEMPOTENCY_STALE_SEC lets a retry take it.
      request.log.error({ err }, 'could not store the answer of an idempotent request');
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    if (route.schema?.headers) throw new Error(`${route.url}: an idempotent route declares its own headers`);
    route.schema = { ...route.schema, headers };
    // Route-level hooks run after the guard, so the caller is known when the key is claimed.
    route.preHandler = [...toArray(route.preHandler), claimKey];
    route.onSend = [...toArray(route.onSend), storeAnswer];
  });
}
