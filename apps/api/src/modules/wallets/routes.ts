import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';

/** Routes of the wallets module. */
export default async function walletsRoutes(_app: FastifyZod, _deps: AppDeps): Promise<void> {}
