import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Routes of the identity module. */
export default async function identityRoutes(_app: FastifyZod, _deps: AppDeps): Promise<void> {}
