import type { StepUp } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { verifyCode } from './codes.ts';
import { createStepUpLimit, type Limit } from './limits.ts';
import { verifyPassword } from './password.ts';
import { memberSecrets } from './repo-members.ts';

type StepUpDeps = Pick<AppDeps, 'db' | 'config' | 'redis'>;

// One budget per app (keyed by its config object, the same for every module of one app), so PUT /my, the
// withdrawal and the order completion spend the same failures of a member.
const budgets = new WeakMap<object, Limit>();
function budgetOf(deps: StepUpDeps): Limit {
  let limit = budgets.get(deps.config);
  if (!limit) {
    limit = createStepUpLimit(deps.config, deps.redis);
    budgets.set(deps.config, limit);
  }
  return limit;
}

async function memberOf(deps: StepUpDeps, memberId: number) {
  const m = await memberSecrets(deps.db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  return m;
}

// The attempt is counted before the check (as login does): parallel guesses cannot outrun the budget,
// and a success clears it, so only failures in a row are held against the member.
async function spend<T>(deps: StepUpDeps, memberId: number, check: () => Promise<T>): Promise<T> {
  const key = String(memberId);
  const budget = budgetOf(deps);
  await budget.consume(key);
  const out = await check();
  await budget.reset(key);
  return out;
}

async function checkPassword(deps: StepUpDeps, memberId: number, password: string): Promise<void> {
  const m = await memberOf(deps, memberId);
  if (!(await verifyPassword(m.password_hash, password))) throw new AppError('INVALID_CREDENTIALS');
}

/**
 * The step-up of DECISIONS §13 for external withdrawals and the seller's order completion, called before
 * the transaction that moves money. `stepUp` is the member's password, or a code sent to the member's own
 * phone by POST /sms/request while signed in (purpose 'member', issued to this member; used up here).
 * Throws 422 STEP_UP_REQUIRED (absent), 400 INVALID_CREDENTIALS (wrong password), 400 CODE_EXPIRED /
 * CODE_MISMATCH / CODE_TRIES_EXCEEDED (code), 429 RATE_LIMITED {retryAfterSec} after 5 failures in 15 min.
 */
export async function requireStepUp(
  deps: StepUpDeps,
  memberId: number,
  stepUp: StepUp | undefined,
): Promise<void> {
  if (!stepUp) throw new AppError('STEP_UP_REQUIRED');
  await spend(deps, memberId, async () => {
    if ('password' in stepUp) return checkPassword(deps, memberId, stepUp.password);
    const m = await memberOf(deps, memberId);
    await verifyCode(deps.db, {
      phone: m.phone_e164,
      purpose: 'member',
      code: stepUp.code,
      maxTries: deps.config.sms.maxTries,
      memberId,
    });
  });
}

/**
 * PUT /my's check (DECISIONS §13) before a password, phone or bank account change: `currentPassword`
 * ('' or absent = missing) must be the member's password. Spends the same failure budget as requireStepUp.
 * Throws 400 CURRENT_PASSWORD_REQUIRED, 400 INVALID_CREDENTIALS, 429 RATE_LIMITED.
 */
export async function requireCurrentPassword(
  deps: StepUpDeps,
  memberId: number,
  currentPassword: string | undefined,
): Promise<void> {
  if (!currentPassword) throw new AppError('CURRENT_PASSWORD_REQUIRED');
  await spend(deps, memberId, () => checkPassword(deps, memberId, currentPassword));
}
