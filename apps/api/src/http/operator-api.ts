import type { FastifyInstance, FastifyTypeProviderDefault } from 'fastify';
import type { z } from 'zod';
import type { Guards } from './auth.ts';
import { memberIdOf } from './auth.ts';
import { ok, okResponse } from './envelope.ts';
import type { OperationDoc } from './operations.ts';
import type { FastifyZod } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API document's entry of an operator route, kept beside the route (http/openapi.ts). */
    operation?: OperationDoc;
  }
}

/** The operator API's prefix (DECISIONS §10): every route below it runs the operator guard. */
export const OPS_API_PREFIX = '/ops/api/v1';

type Input = z.ZodType | undefined;
type Parsed<S extends Input> = S extends z.ZodType ? z.output<S> : undefined;

/** What an operator route's handler receives: the signed-in operator and the validated input. */
export interface OpsCall<P extends Input, Q extends Input, B extends Input> {
  /** The operator's member id (the audit record's actor). */
  operatorId: number;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

/** One operator route: its API docs, its schemas and its call. */
export interface OpsRouteSpec<P extends Input, Q extends Input, B extends Input, R extends z.ZodType> {
  /** operationId, summary and the refusals of its rules; the guard's, schemas' and idempotency's are added. */
  doc: OperationDoc;
  /** A call that changes state takes an Idempotency-Key (DECISIONS §15, http/idempotency.ts). */
  idempotent?: true;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The schema of `returnData`; the envelope around it is added. */
  response: R;
  handle(call: OpsCall<P, Q, B>): Promise<z.input<R>>;
}

/** Registers operator routes; `url` is below OPS_API_PREFIX (e.g. `/listings/:id/approve`). */
export interface OpsRoutes {
  get<P extends Input, Q extends Input, R extends z.ZodType>(
    url: string,
    spec: OpsRouteSpec<P, Q, undefined, R>,
  ): void;
  post<P extends Input, Q extends Input, B extends Input, R extends z.ZodType>(
    url: string,
    spec: OpsRouteSpec<P, Q, B, R>,
  ): void;
}

/** A module's operator routes (its `ops-routes.ts`), given the registrar and whatever the module needs. */
export type OpsRouteFile = (ops: OpsRoutes) => void;

const TAGS = ['ops'];
const SECURITY = [{ bearer: [] }];

function opsRoutesOn(app: FastifyInstance): OpsRoutes {
  const add =
    (method: 'GET' | 'POST') =>
    <P extends Input, Q extends Input, B extends Input, R extends z.ZodType>(
      url: string,
      spec: OpsRouteSpec<P, Q, B, R>,
    ): void => {
      app.route({
        method,
        url,
        config: { operation: spec.doc, ...(spec.idempotent ? { idempotent: true } : {}) },
        schema: {
          tags: TAGS,
          security: SECURITY,
          ...(spec.params ? { params: spec.params } : {}),
          ...(spec.querystring ? { querystring: spec.querystring } : {}),
          ...(spec.body ? { body: spec.body } : {}),
          response: okResponse(spec.response),
        },
        // The schemas above validated these before the handler runs; the casts name what they produced.
        handler: async (request) =>
          ok(
            await spec.handle({
              operatorId: memberIdOf(request),
              params: request.params as Parsed<P>,
              query: request.query as Parsed<Q>,
              body: request.body as Parsed<B>,
            }),
          ),
      });
    };
  return { get: add('GET'), post: add('POST') };
}

/**
 * The operator API (DECISIONS §8, §10): one plugin, registered with `prefix: OPS_API_PREFIX`, whose
 * `onRequest` hook runs the operator guard for every route in it (no token 401, a member 403 FORBIDDEN)
 * before anything else is read, so no route file can forget it. Each file adds its routes with
 * `ops.get` / `ops.post`, which add the tags, bearer security, envelope and idempotency config.
 */
export function operatorApi(guards: Guards, files: OpsRouteFile[]): (app: FastifyZod) => Promise<void> {
  return async (app) => {
    app.addHook('onRequest', guards.requireOperator);
    // The spec's types check each handler; the route itself is registered untyped, its zod schemas still
    // validating the input and serializing the answer.
    const ops = opsRoutesOn(app.withTypeProvider<FastifyTypeProviderDefault>());
    for (const file of files) file(ops);
  };
}
