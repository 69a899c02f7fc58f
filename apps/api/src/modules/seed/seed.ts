import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';

/** Demo data (DECISIONS §9, §10 SEED_DEMO). Placeholder until the wallet and market services exist. */
export async function seedDemo(_deps: AppDeps, _log: FastifyBaseLogger): Promise<void> {}
