import { COINS } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { anyMemberExists } from './modules/identity/index.ts';
import { ensureOperator } from './modules/operators/index.ts';
import { seedDemo } from './modules/seed/index.ts';

/**
 * Refuses a production start that would be unsafe (DECISIONS §13), before the database is opened: demo
 * data (SEED_DEMO=1: known passwords, deposits no chain backs), a missing JWT_SECRET (every instance
 * would sign with its own random key, and a restart would sign everyone out) and a missing XPUB_<COIN>
 * (addresses would come from one instance's DATA_DIR) and a missing SIGNER_TOKEN (DECISIONS §18). Throws an Error whose
 * message names the variable and the fix.
 */
export function assertProductionSafe(config: Config): void {
  if (!config.isProduction) return;
  if (config.seedDemo === true) {
    throw new Error(
      'SEED_DEMO=1 is refused in production: demo accounts have published passwords and unbacked balances; ' +
        'unset SEED_DEMO (or use NODE_ENV=development for a demo)',
    );
  }
  if (!config.jwtSecret) {
    throw new Error('JWT_SECRET is required in production (32+ characters, the same on every instance)');
  }
  // DECISIONS §14: a development seed lives in one instance's DATA_DIR, so instances would hand out
  // different deposit addresses. Refused here, before the database is opened, like the JWT secret.
  const missing = COINS.filter((c) => !config.chain.xpubs[c]);
  if (missing.length > 0) {
    throw new Error(
      `XPUB_${missing.join(', XPUB_')} required in production (watch-only account keys, the same on every instance)`,
    );
  }
  // DECISIONS §18: the signer's HMAC secret; outside production the development signer's token file serves.
  if ((config.signer.token?.length ?? 0) < 32) {
    throw new Error("SIGNER_TOKEN is required in production (32+ characters, the same as the signer's)");
  }
}

/**
 * Whether to seed demo data (DECISIONS §9, §10, §13): never in production; an explicit SEED_DEMO wins;
 * otherwise only on a new embedded database (no DATABASE_URL and no member yet), so a PostgreSQL deployment never gets demo
 * accounts by accident.
 */
export async function shouldSeedDemo(deps: AppDeps): Promise<boolean> {
  // Production never seeds, whatever the database looks like (assertProductionSafe refuses SEED_DEMO=1).
  if (deps.config.isProduction) return false;
  if (deps.config.seedDemo !== undefined) return deps.config.seedDemo;
  if (deps.config.databaseUrl) return false;
  return !(await anyMemberExists(deps.db));
}

/**
 * Work done once at start after migrations (DECISIONS §9, §10): the operator of OPERATOR_LOGIN_ID /
 * OPERATOR_PASSWORD is created if absent, then the demo data when shouldSeedDemo says so. Throws when
 * the configured operator is invalid, so a misconfigured deployment fails loudly at start.
 */
export async function runStartupTasks(deps: AppDeps, log: FastifyBaseLogger): Promise<void> {
  // Decided before the operator is created: that insert must not make a new database look used.
  const seed = await shouldSeedDemo(deps);
  const op = deps.config.operator;
  if (op) {
    const r = await ensureOperator(deps.db, op);
    if (r.outcome === 'created') log.info({ loginId: r.loginId }, 'operator created from OPERATOR_LOGIN_ID');
    if (r.outcome === 'conflict-member') {
      log.warn(
        { loginId: r.loginId },
        'OPERATOR_LOGIN_ID names an existing ordinary member; it was NOT made an operator',
      );
    }
  }
  if (seed) await seedDemo(deps, log);
}
