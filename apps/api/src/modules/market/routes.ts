import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Routes of the market module. */
export default async function marketRoutes(_app: FastifyZod, _deps: AppDeps): Promise<void> {}
