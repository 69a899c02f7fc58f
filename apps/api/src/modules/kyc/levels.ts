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
