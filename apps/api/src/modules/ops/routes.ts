import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Routes of the ops module. */
export default async function opsRoutes(_app: FastifyZod, _deps: AppDeps): Promise<void> {}
