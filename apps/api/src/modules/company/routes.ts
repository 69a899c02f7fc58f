import { companyInfo } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import { publicCache } from '../../http/public-cache.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Seconds a browser or proxy may reuse GET /api/v1/company (it changes only with a restart). */
export const COMPANY_MAX_AGE_SEC = 3600;

/**
 * GET /api/v1/company: the operator's business details from configuration, for the footer.
 * Served at run time rather than built into the web app, so one build serves any operator.
 */
export default async function companyRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  await publicCache(app, COMPANY_MAX_AGE_SEC);
  app.get('/api/v1/company', { schema: { tags: ['company'], response: okResponse(companyInfo) } }, async () =>
    ok(deps.config.company),
  );
}
