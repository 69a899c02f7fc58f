import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { ensureOperator } from './ops/operators.ts';
import { seedDemo } from './seed/seed.ts';

/**
 * Whether to seed demo data (DECISIONS §9, §10): an explicit SEED_DEMO wins; otherwise only on a new
 * embedded database (no DATABASE_URL and no member yet), so a PostgreSQL deployment never gets demo
 * accounts by accident.
 */
export async function shouldSeedDemo(deps: AppDeps): Promise<boolean> {
  if (deps.config.seedDemo !== undefined) return deps.config.seedDemo;
  if (deps.config.databaseUrl) return false;
  const any = await deps.db.selectFrom('members').select('id').limit(1).executeTakeFirst();
  return any === undefined;
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
