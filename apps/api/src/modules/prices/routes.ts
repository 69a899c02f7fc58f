import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Routes of the prices module. */
export default async function pricesRoutes(_app: FastifyZod, _deps: AppDeps): Promise<void> {}
