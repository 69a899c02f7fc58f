import { verify } from 'otplib';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { hasConfirmedTotp, lockTotpRow, setTotpLastStep } from './repo-totp.ts';
import { openTotpSecret, totpKey } from './totp-crypto.ts';

/*
 * An operator's second factor at sign-in (DECISIONS §13). Enrollment, confirmation and the CLI reset are the
 * operators module's (operators/totp.ts); the check and the rows are here, with the sign-in that needs them.
 */

const PERIOD_SEC = 30;

/**
 * Checks `code` against `secret` at the current time, one 30-second step either side (clock drift), and
 * only for steps after `afterStep` (a code is accepted once). Returns the accepted time step, or null.
 */
export async function acceptedTotpStep(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | null> {
  const r = await verify({
    secret,
    token: code,
    period: PERIOD_SEC,
    epochTolerance: PERIOD_SEC,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return r.valid && 'timeStep' in r ? r.timeStep : null;
}

/**
 * The second step of POST /api/v1/auth/login for an operator, called once the password was right
 * (DECISIONS §13). Without a confirmed TOTP it lets the sign-in through. Otherwise throws TOTP_REQUIRED
 * (401, no code given) or TOTP_INVALID (400: wrong, outside ±1 step, or a step already used); an accepted
 * code's step is stored under a row lock, so two sign-ins with one code cannot both pass.
 */
export async function checkOperatorTotp(
  deps: AppDeps,
  memberId: number,
  code: string | undefined,
): Promise<void> {
  if (!(await hasConfirmedTotp(deps.db, memberId))) return;
  if (!code) throw new AppError('TOTP_REQUIRED');
  await inTx(deps.db, async (tx) => {
    const row = await lockTotpRow(tx, memberId);
    // Reset between the two reads: nothing to check any more.
    if (!row?.confirmed_at) return;
    const secret = openTotpSecret(totpKey(deps.config), memberId, row.secret_enc);
    const step = await acceptedTotpStep(secret, code, row.last_time_step);
    if (step === null) throw new AppError('TOTP_INVALID');
    await setTotpLastStep(tx, memberId, step);
  });
}
