import { normalizeKycName } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { memberKycRow, raiseKycLevel } from '../identity/index.ts';
import { insertIdentityRequest, insertVerifiedIdentity, markIdentityVerified } from './repo.ts';

/**
 * Puts a member at `level` without the provider or a review, with the verified identity a level of 1 or more
 * carries (the member's own name, `birthDate`), recorded as provider `grant`. For the demo seed (DECISIONS §19:
 * demo members trade at once) and test kits only; nothing in a request path calls it. Throws when the member
 * does not exist.
 */
export async function grantKycLevel(
  db: Db,
  memberId: number,
  level: 1 | 2,
  birthDate = '1990-01-01',
): Promise<void> {
  const m = await memberKycRow(db, memberId);
  if (!m) throw new Error(`member ${memberId} not found`);
  const name = normalizeKycName(m.name);
  await inTx(db, async (tx) => {
    const requestId = await insertIdentityRequest(tx, {
      memberId,
      provider: 'grant',
      providerRef: 'grant',
      name,
      birthDate,
      ttlSec: 60,
    });
    await markIdentityVerified(tx, requestId);
    await insertVerifiedIdentity(tx, { memberId, name, birthDate, provider: 'grant', requestId });
    await raiseKycLevel(tx, memberId, level);
  });
}
