import { envelopeOf } from '@p2p/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { ok } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';

/** The process's place in its life (DECISIONS §14): `draining` from the shutdown signal until exit. */
export interface Lifecycle {
  draining: boolean;
}

/** How long /readyz waits for the database before it answers 503: a load balancer probe must not hang. */
export const READY_QUERY_TIMEOUT_MS = 2_000;

const TIMED_OUT = Symbol('timedOut');

async function databaseAnswers(deps: AppDeps): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), READY_QUERY_TIMEOUT_MS);
  });
  try {
    const r = await Promise.race([sql`select 1 as one`.execute(deps.db), timeout]);
    return r !== TIMED_OUT;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz (DECISIONS §10): 200 once the database answers, 503 SERVICE_UNAVAILABLE otherwise.
 * GET /readyz (DECISIONS §14): 200 `{status:'ready', database}` only while the database answers a short
 * query within READY_QUERY_TIMEOUT_MS (else 503 DB_UNAVAILABLE) and the process is not draining for
 * shutdown (else 503 SERVICE_UNAVAILABLE `{reason:'DRAINING'}`), so a load balancer stops sending to it.
 */
export default async function healthRoutes(
  app: FastifyZod,
  deps: AppDeps & { lifecycle: Lifecycle },
): Promise<void> {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        response: {
          200: envelopeOf(z.object({ status: z.literal('ok'), database: z.enum(['postgres', 'pglite']) })),
        },
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(deps.db);
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      return ok({ status: 'ok' as const, database: deps.dbh.kind });
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        response: {
          200: envelopeOf(z.object({ status: z.literal('ready'), database: z.enum(['postgres', 'pglite']) })),
        },
      },
    },
    async () => {
      if (deps.lifecycle.draining) throw new AppError('SERVICE_UNAVAILABLE', { reason: 'DRAINING' });
      if (!(await databaseAnswers(deps))) throw new AppError('DB_UNAVAILABLE');
      if (deps.lifecycle.draining) throw new AppError('SERVICE_UNAVAILABLE', { reason: 'DRAINING' });
      return ok({ status: 'ready' as const, database: deps.dbh.kind });
    },
  );
}
