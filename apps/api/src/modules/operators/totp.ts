import type { OpsTotpEnrollment, OpsTotpStatus } from '@p2p/contract';
import { generateSecret, generateURI } from 'otplib';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { audit } from '../audit/index.ts';
import {
  acceptedTotpStep,
  confirmTotpRow,
  deleteTotp,
  lockTotpRow,
  loginIdOf,
  openTotpSecret,
  sealTotpSecret,
  totpConfirmation,
  totpKey,
  upsertPendingTotp,
} from '../identity/index.ts';

/** Name shown by authenticator apps next to the operator's login ID. */
export const TOTP_ISSUER = 'P2P Coin Market Ops';
/** GET /ops/api/v1/totp: whether the operator's second factor is on, or an enrollment waits. */
export async function totpStatus(db: Db, memberId: number): Promise<OpsTotpStatus> {
  const row = await totpConfirmation(db, memberId);
  return {
    enrolled: Boolean(row?.confirmed_at),
    pending: Boolean(row && !row.confirmed_at),
    confirmedAt: row?.confirmed_at ? row.confirmed_at.toISOString() : null,
  };
}

/**
 * POST /ops/api/v1/totp/enroll (DECISIONS §13): a new random secret (20 bytes, base32) replaces any pending
 * one and waits for /confirm; sign-in does not ask for codes until then. -> {secret, otpauthUrl}.
 * Throws TOTP_ALREADY_ENROLLED (409) once confirmed: a confirmed factor is changed only through the CLI
 * reset, so a stolen console session cannot swap it. Audited as operator.totp.enroll.
 */
export async function enrollTotp(deps: AppDeps, memberId: number): Promise<OpsTotpEnrollment> {
  const secret = generateSecret();
  const sealed = sealTotpSecret(totpKey(deps.config), memberId, secret);
  const loginId = await inTx(deps.db, async (tx) => {
    const row = await lockTotpRow(tx, memberId);
    if (row?.confirmed_at) throw new AppError('TOTP_ALREADY_ENROLLED');
    await upsertPendingTotp(tx, memberId, sealed);
    await audit(tx, {
      operatorId: memberId,
      action: 'operator.totp.enroll',
      targetType: 'member',
      targetId: memberId,
    });
    return loginIdOf(tx, memberId);
  });
  return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: loginId, secret }) };
}

/**
 * POST /ops/api/v1/totp/confirm {code}: a code from the app proves it holds the pending secret; from then
 * on sign-in needs a code. The code's step is remembered, so it cannot sign in afterwards.
 * Throws INVALID_STATE (no enrollment pending), TOTP_ALREADY_ENROLLED, TOTP_INVALID. Audited.
 */
export async function confirmTotp(deps: AppDeps, memberId: number, code: string): Promise<OpsTotpStatus> {
  await inTx(deps.db, async (tx) => {
    const row = await lockTotpRow(tx, memberId);
    if (!row) throw new AppError('INVALID_STATE');
    if (row.confirmed_at) throw new AppError('TOTP_ALREADY_ENROLLED');
    const secret = openTotpSecret(totpKey(deps.config), memberId, row.secret_enc);
    const step = await acceptedTotpStep(secret, code, null);
    if (step === null) throw new AppError('TOTP_INVALID');
    await confirmTotpRow(tx, memberId, step);
    await audit(tx, {
      operatorId: memberId,
      action: 'operator.totp.confirm',
      targetType: 'member',
      targetId: memberId,
    });
  });
  return totpStatus(deps.db, memberId);
}

/**
 * Removes an operator's TOTP (the CLI reset-operator-totp, for a lost phone) so they sign in with the
 * password and enroll again. Audited as operator.totp.reset with the operator as both actor and target
 * (a CLI run has no signed-in operator; `data.via` says where it came from). Returns false when the
 * operator had no TOTP (nothing written).
 */
export async function resetTotp(db: Db, memberId: number, via: string): Promise<boolean> {
  return inTx(db, async (tx) => {
    if (!(await deleteTotp(tx, memberId))) return false;
    await audit(tx, {
      operatorId: memberId,
      action: 'operator.totp.reset',
      targetType: 'member',
      targetId: memberId,
      data: { via },
    });
    return true;
  });
}
