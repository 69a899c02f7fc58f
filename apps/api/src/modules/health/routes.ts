import { envelopeOf } from '@p2p/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import type { FastifyZod } from '../../http/types.ts';

/** GET /healthz (DECISIONS §10): 200 once the database answers, 503 SERVICE_UNAVAILABLE otherwise. */
export default async function healthRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
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
}
