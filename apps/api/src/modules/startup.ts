import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.ts';

/** Work done once at start after migrations: operator from OPERATOR_LOGIN_ID/PASSWORD, demo seed (DECISIONS §9, §10). */
export async function runStartupTasks(_deps: AppDeps, _log: FastifyBaseLogger): Promise<void> {}
