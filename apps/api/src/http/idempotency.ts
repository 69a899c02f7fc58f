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
        'body is 422 IDEMPOTENCY_KEY_REUSED; while the first runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS. Kept 24 h.',
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

/** Successes and business refusals are replayed; 5xx, 429 and refusals of a step-up secret run again. */
function worthReplaying(status: number, payload: string): boolean {
  if (status >= 500 || status === 429) return false;
  if (status < 400) return true;
  try {
    const code = (JSON.parse(payload) as { returnMessage?: unknown }).returnMessage;
    return !(typeof code === 'string' && SECRET_REFUSALS.has(code));
  } catch {
    return false;
  }
}

const toArray = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/**
 * Idempotent money moves (DECISIONS §15), built once: every route registered after this call with
 * `config: { idempotent: true }` accepts an optional `Idempotency-Key` header (malformed: 400 VALIDATION_FAILED
 * {fields: {idempotency-key: INVALID_FORMAT}}). The key is scoped to the signed-in caller (the route's guard runs
 * first) and stored in `idempotency_keys` under the primary key (caller, key):
 * - the first request inserts the row IN_PROGRESS and runs; its answer is stored when it is below 500 (a
 *   refusal changed nothing and is answered again); a 5xx, a 429 or a refused step-up secret removes the row,
 *   so a retry runs;
 * - a repeat with the same method, route, params and body gets the stored status and body back, changing nothing;
 * - the same key with another request: 422 IDEMPOTENCY_KEY_REUSED;
 * - a repeat while the first still runs: 409 IDEMPOTENCY_KEY_IN_PROGRESS (the IETF idempotency-key draft's
 *   answer; nothing waits on a lock), unless the row is older than IDEMPOTENCY_STALE_SEC (a dead process).
 * Rows older than 24 h are deleted when their caller next claims a key and by a sweep every 10 minutes.
 */
export function installIdempotency(app: FastifyInstance, db: Db): void {
  const claims = new WeakMap<FastifyRequest, Claim>();
  let lastSweepMs = 0;

  async function sweep(callerId: number): Promise<void> {
    const ttl = sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;
    await sql`delete from idempotency_keys where caller_id = ${callerId} and created_at < ${ttl}`.execute(db);
    if (Date.now() - lastSweepMs < SWEEP_INTERVAL_MS) return;
    lastSweepMs = Date.now();
    await sql`delete from idempotency_keys where created_at < ${ttl}`.execute(db);
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
      const inserted = await sql`insert into idempotency_keys (caller_id, key, request_hash, status)
        values (${callerId}, ${key}, ${hash}, 'IN_PROGRESS') on conflict do nothing returning caller_id`.execute(
        db,
      );
      if (inserted.rows.length > 0) {
        claims.set(request, { callerId, key });
        return;
      }
      const found = await sql<StoredRow>`select request_hash, status, response_status, response_body
        from idempotency_keys where caller_id = ${callerId} and key = ${key}`.execute(db);
      const row = found.rows[0];
      if (!row) continue;
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
