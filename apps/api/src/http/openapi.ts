import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { ERROR_STATUS, type ErrorCode, errorEnvelope } from '@p2p/contract';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guards } from './auth.ts';
import { OPERATIONS, type OperationDoc } from './operations.ts';
import { OPS_API_PREFIX } from './operator-api.ts';

type Auth = 'member' | 'operator' | 'optional' | 'none';

const BEARER = [{ bearer: [] }];
const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  member: BEARER,
  operator: BEARER,
  optional: [{}, ...BEARER],
  none: [],
};

/** The error envelope of the contract as OpenAPI 3.0 JSON schema, one copy per status below. */
const ENVELOPE = z.toJSONSchema(errorEnvelope, { target: 'openapi-3.0' }) as {
  properties: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

const toArray = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/** The key of an operation in OPERATIONS: "METHOD /fastify/:path". */
export function operationKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

function authOf(route: RouteOptions, guards: Guards, doc: OperationDoc | undefined): Auth {
  // The operator API's plugin guards its whole prefix (http/operator-api.ts); the other routes name their guard.
  if (route.url.startsWith(`${OPS_API_PREFIX}/`)) return 'operator';
  const hooks: unknown[] = [...toArray(route.onRequest), ...toArray(route.preHandler)];
  if (hooks.includes(guards.requireOperator)) return 'operator';
  if (hooks.includes(guards.requireMember)) return 'member';
  return doc?.optionalAuth ? 'optional' : 'none';
}

/**
 * Every refusal an operation can answer: its own (OPERATIONS) plus those its shape implies — schema
 * validation, the body limit, the guard, the Idempotency-Key (DECISIONS §15), and the two a server may always
 * answer (INTERNAL_ERROR, DB_UNAVAILABLE).
 */
function errorsOf(schema: FastifySchema, route: RouteOptions, auth: Auth, doc: OperationDoc | undefined) {
  const codes = new Set<ErrorCode>(['INTERNAL_ERROR', 'DB_UNAVAILABLE']);
  if (schema.body || schema.querystring || schema.params || schema.headers) codes.add('VALIDATION_FAILED');
  if (schema.body) codes.add('PAYLOAD_TOO_LARGE');
  if (auth !== 'none') for (const c of ['UNAUTHORIZED', 'TOKEN_EXPIRED'] as const) codes.add(c);
  if (auth === 'member' || auth === 'operator') codes.add('MEMBER_SUSPENDED');
  if (auth === 'operator') codes.add('FORBIDDEN');
  if (route.config?.idempotent) {
    // RATE_LIMITED: a new key beyond IDEMPOTENCY_MAX_PER_MEMBER_DAY (DECISIONS §21)
    for (const c of ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'RATE_LIMITED'] as const)
      codes.add(c);
  }
  for (const c of doc?.errors ?? []) codes.add(c);
  return [...codes];
}

/** One JSON schema per HTTP status: the contract's error envelope with that status and its codes. */
function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_STATUS[c], [...(byStatus.get(ERROR_STATUS[c]) ?? []), c]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    list.sort();
    out[String(status)] = {
      ...ENVELOPE,
      description: `The error envelope: ${list.join(', ')} (packages/contract/src/errors.ts).`,
      properties: {
        ...ENVELOPE.properties,
        returnCode: { ...ENVELOPE.properties.returnCode, enum: [status] },
        returnMessage: { ...ENVELOPE.properties.returnMessage, enum: list },
      },
    };
  }
  return out;
}

/**
 * The swagger `transform` of the API document (DECISIONS §15): the zod schemas become JSON schemas
 * (fastify-type-provider-zod), then each operation gets its operationId and summary from OPERATIONS, its
 * bearer security from the guard it runs, and its error answers with the envelope schema. An operator route
 * brings its entry in its config (http/operator-api.ts). A route with neither is left without operationId,
 * which apps/api/test/openapi.test.ts refuses.
 */
export function createDocTransform(guards: Guards): SwaggerTransform {
  return (input) => {
    const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
    const schema = out.schema as FastifySchema & { hide?: boolean; response?: Record<string, unknown> };
    if (schema.hide) return out;
    const method = toArray(input.route.method)[0] ?? 'GET';
    const doc = input.route.config?.operation ?? OPERATIONS[operationKey(method, input.url)];
    const auth = authOf(input.route, guards, doc);
    const response = { ...(schema.response ?? {}) };
    if (!Object.keys(response).some((s) => s.startsWith('2'))) response['200'] = { description: 'Success' };
    const summary = input.schema.summary ?? doc?.summary;
    return {
      url: out.url,
      schema: {
        ...schema,
        ...(doc ? { operationId: doc.operationId } : {}),
        ...(summary ? { summary } : {}),
        security: auth === 'none' && input.schema.security ? input.schema.security : SECURITY[auth],
        response: { ...response, ...errorResponses(errorsOf(input.schema, input.route, auth, doc)) },
      },
    };
  };
}

/** The swagger `transformObject`: the parts of the document no route carries (servers, license). */
export const finishDocument: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  return {
    ...document.openapiObject,
    servers: [{ url: '/', description: 'The server that serves this document' }],
    info: {
      title: 'P2P coin marketplace API',
      version: '1.0.0',
      ...document.openapiObject.info,
      license: { name: 'Proprietary' },
    },
  };
};
