import { holdSecAt, type TrustConfig } from '../../config-trust.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { memberKycRow } from '../identity/index.ts';
import { verifiedIdentity } from './repo.ts';

/**
 * A member's identity level (DECISIONS §19): 0 phone only, 1 identity verified, 2 ID document reviewed.
 * Throws UNAUTHORIZED when the member does not exist.
 */
export async function kycLevelOf(db: DbOrTx, memberId: number): Promise<number> {
  const m = await memberKycRow(db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  return m.kyc_level;
}

/**
 * A member's identity level and, with the holds of DECISIONS §19, when coins bought at `now` could leave by
 * external withdrawal at the earliest (ISO time: now + the member's hold), or null when no hold applies (an
 * external delivery of a purchase is then allowed). The purchase screen reads it to offer the outside address
 * only when the API would take it (orders refuse it with WITHDRAWAL_HELD otherwise). Throws UNAUTHORIZED.
 */
export async function kycLevelAndHold(
  db: DbOrTx,
  memberId: number,
  holds: TrustConfig['holds'],
  now = new Date(),
): Promise<{ level: number; purchaseHeldUntil: string | null }> {
  const m = await memberKycRow(db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  const sec = holdSecAt(holds, m.created_at, now);
  return {
    level: m.kyc_level,
    purchaseHeldUntil: sec > 0 ? new Date(now.getTime() + sec * 1000).toISOString() : null,
  };
}

/**
 * Refuses with 422 KYC_REQUIRED {level} when the member's identity level is below `level` (DECISIONS §19);
 * `level` 0 or less asks nothing (KYC_TRADE_LEVEL=0 lifts the requirement). Call it in the transaction of the
 * move it guards. Levels only rise, so no lock is taken.
 */
export async function requireKycLevel(tx: DbOrTx, memberId: number, level: number): Promise<void> {
  if (level <= 0) return;
  if ((await kycLevelOf(tx, memberId)) < level) throw new AppError('KYC_REQUIRED', { level });
}

/**
 * The member's verified name (NFC, single spaces) as the identity provider reported it, or null below
 * level 1. The name a bank account holder and a depositor must carry (DECISIONS §19).
 */
export async function verifiedNameOf(db: DbOrTx, memberId: number): Promise<string | null> {
  return (await verifiedIdentity(db, memberId))?.verified_name ?? null;
}
