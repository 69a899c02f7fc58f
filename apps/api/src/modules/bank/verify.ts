import type { BankVerifyBody, VerifiedBankAccount } from '@p2p/contract';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { setProfileBankAccount } from '../identity/index.ts';
import { verifiedNameOf } from './queries.ts';
import { addTry, closeVerification, lockOpenVerification, upsertBankAccount } from './repo.ts';
import { accountOut, type BankContext, codeMatches, sameName } from './service.ts';

/** What one code check decided; refusals are thrown after the commit so a counted try stays counted. */
type Outcome =
  | { ok: true; account: VerifiedBankAccount }
  | { ok: false; code: 'CODE_EXPIRED' | 'CODE_TRIES_EXCEEDED' | 'ACCOUNT_HOLDER_MISMATCH' }
  | { ok: false; code: 'CODE_MISMATCH'; triesLeft: number };

/**
 * POST /api/v1/bank-account/verify (DECISIONS §19): checks the code against the member's newest open 1원
 * request under its row lock (parallel guesses take turns and each counts). Right code: the request closes,
 * and when the holder name the bank reported equals the member's verified name (NFC, spaces collapsed, then
 * exact) the account becomes the member's verified account (and their profile's); else 422
 * ACCOUNT_HOLDER_MISMATCH and nothing is saved. Errors: 400 CODE_EXPIRED (none open, or expired), 400
 * CODE_MISMATCH {triesLeft}, 400 CODE_TRIES_EXCEEDED (the 5th wrong code closes the request: ask anew),
 * 429 RATE_LIMITED.
 */
export async function verifyBankCode(
  ctx: BankContext,
  memberId: number,
  body: BankVerifyBody,
): Promise<VerifiedBankAccount> {
  await ctx.limits.verifyPerMember.consume(String(memberId));
  const maxTries = ctx.deps.config.trust.bank.maxTries;
  const out = await inTx(ctx.deps.db, async (tx): Promise<Outcome> => {
    const v = await lockOpenVerification(tx, memberId);
    if (!v || v.expires_at.getTime() <= Date.now()) return { ok: false, code: 'CODE_EXPIRED' };
    if (v.tries >= maxTries) return { ok: false, code: 'CODE_TRIES_EXCEEDED' };
    if (!codeMatches(v.code_hash, body.code)) {
      await addTry(tx, v.id);
      if (v.tries + 1 >= maxTries) {
        await closeVerification(tx, v.id);
        return { ok: false, code: 'CODE_TRIES_EXCEEDED' };
      }
      return { ok: false, code: 'CODE_MISMATCH', triesLeft: maxTries - v.tries - 1 };
    }
    await closeVerification(tx, v.id);
    const name = await verifiedNameOf(tx, memberId);
    if (name === undefined || !sameName(name, v.holder_name))
      return { ok: false, code: 'ACCOUNT_HOLDER_MISMATCH' };
    const saved = await upsertBankAccount(tx, {
      memberId,
      bankName: v.bank_name,
      accountNo: v.account_no,
      holderName: v.holder_name,
    });
    await setProfileBankAccount(tx, memberId, v.bank_name, v.account_no);
    return { ok: true, account: accountOut(saved) };
  });
  if (out.ok) return out.account;
  throw new AppError(out.code, out.code === 'CODE_MISMATCH' ? { triesLeft: out.triesLeft } : null);
}
