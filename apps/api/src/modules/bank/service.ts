import { randomBytes, randomInt } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  BANK_CODE_LENGTH,
  type BankAccountState,
  type BankVerifyRequestBody,
  type BankVerifyRequestOut,
  normalizePersonName,
  type VerifiedBankAccount,
} from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { makeLimit, requireStepUp } from '../identity/index.ts';
import type { BankVerifyProvider } from './provider.ts';
import { verifiedNameOf } from './queries.ts';
import { bankAccountOf, insertBankAccountIfAbsent, insertVerification, openVerification } from './repo.ts';

type BankDeps = Pick<AppDeps, 'db' | 'config' | 'redis'>;

/** What the bank routes share: the app's deps, the provider (null = none configured) and the budgets. */
export interface BankContext {
  deps: BankDeps;
  provider: BankVerifyProvider | null;
  limits: ReturnType<typeof bankLimits>;
}

/** Rate budgets of the 1원 check, spent before anything is looked up (DECISIONS §13). */
export function bankLimits(deps: BankDeps) {
  const b = deps.config.trust.bank;
  return {
    requestPerMember: makeLimit(
      { name: 'member', points: b.perMemberPerHour, durationSec: 3600 },
      deps.redis,
      'bank-req',
    ),
    requestPerIp: makeLimit(
      { name: 'ip', points: b.perIpPerHour, durationSec: 3600 },
      deps.redis,
      'bank-req',
    ),
    // Each request allows maxTries codes; this caps guesses across many requests as well.
    verifyPerMember: makeLimit({ name: 'member', points: 30, durationSec: 3600 }, deps.redis, 'bank-try'),
  };
}

/** The stored form of a code: `salt$sha256(salt:code)`, a fresh salt per request. */
export function hashCode(code: string, salt = bytesToHex(randomBytes(16))): string {
  return `${salt}$${bytesToHex(sha256(utf8ToBytes(`${salt}:${code}`)))}`;
}

/** Whether `code` is the one `stored` was made from. */
export function codeMatches(stored: string, code: string): boolean {
  const salt = stored.split('$')[0] ?? '';
  return hashCode(code, salt) === stored;
}

/** Whether two names are the same person's name under DECISIONS §19: NFC, spaces collapsed, then exact. */
export function sameName(a: string, b: string): boolean {
  return normalizePersonName(a) === normalizePersonName(b);
}

export function accountOut(a: {
  bank_name: string;
  account_no: string;
  holder_name: string;
  verified_at: Date;
}): VerifiedBankAccount {
  return {
    bankName: a.bank_name,
    accountNo: a.account_no,
    holderName: a.holder_name,
    verifiedAt: a.verified_at.toISOString(),
  };
}

/**
 * POST /api/v1/bank-account/verify/request (DECISIONS §19): spends the member's and the address's budget
 * (429 RATE_LIMITED), asks for the step-up when the member already has a verified account (a change,
 * DECISIONS §13: 422 STEP_UP_REQUIRED ...), has the provider send 1 KRW whose depositor name carries a fresh
 * 4-digit code, and stores the request (code hashed, the holder name the bank reported, expiry). 503
 * SERVICE_UNAVAILABLE when no provider is configured.
 */
export async function requestBankVerification(
  ctx: BankContext,
  memberId: number,
  body: BankVerifyRequestBody,
  ip: string,
): Promise<BankVerifyRequestOut> {
  const { deps } = ctx;
  await ctx.limits.requestPerMember.consume(String(memberId));
  await ctx.limits.requestPerIp.consume(ip);
  if (!ctx.provider) throw new AppError('SERVICE_UNAVAILABLE', { reason: 'BANK_VERIFY_PROVIDER' });
  if (await bankAccountOf(deps.db, memberId)) await requireStepUp(deps, memberId, body.stepUp);
  const name = await verifiedNameOf(deps.db, memberId);
  if (name === undefined) throw new AppError('UNAUTHORIZED');
  const code = String(randomInt(0, 10 ** BANK_CODE_LENGTH)).padStart(BANK_CODE_LENGTH, '0');
  const receipt = await ctx.provider.sendOneWon({
    bankName: body.bankName,
    accountNo: body.accountNo,
    depositorName: `P2P${code}`,
    requesterName: name,
  });
  const ttl = deps.config.trust.bank.codeTtlSec;
  const row = await inTx(deps.db, (tx) =>
    insertVerification(tx, {
      memberId,
      bankName: body.bankName,
      accountNo: body.accountNo,
      codeHash: hashCode(code),
      holderName: receipt.holderName,
      expiresAt: new Date(Date.now() + ttl * 1000),
    }),
  );
  return pendingOut(row, deps.config.trust.bank.maxTries);
}

export function pendingOut(
  r: { bank_name: string; account_no: string; expires_at: Date; tries: number },
  maxTries: number,
): BankVerifyRequestOut {
  return {
    bankName: r.bank_name,
    accountNo: r.account_no,
    expiresAt: r.expires_at.toISOString(),
    triesLeft: Math.max(0, maxTries - r.tries),
  };
}

/** GET /api/v1/bank-account: the verified account, the open request and whether listings need one. */
export async function bankAccountState(deps: BankDeps, memberId: number): Promise<BankAccountState> {
  const [account, pending] = await Promise.all([
    bankAccountOf(deps.db, memberId),
    openVerification(deps.db, memberId),
  ]);
  return {
    verified: account ? accountOut(account) : null,
    pending: pending ? pendingOut(pending, deps.config.trust.bank.maxTries) : null,
    required: deps.config.trust.bank.required,
  };
}

/**
 * A listing's payout account (DECISIONS §19): with BANK_VERIFY_REQUIRED it must be the seller's verified
 * account, bank and number alike, else 422 BANK_ACCOUNT_NOT_VERIFIED.
 */
export async function assertPayoutAccount(
  deps: Pick<AppDeps, 'config'> & { db: DbOrTx },
  sellerId: number,
  bankName: string,
  accountNo: string,
): Promise<void> {
  if (!deps.config.trust.bank.required) return;
  const a = await bankAccountOf(deps.db, sellerId);
  if (!a || a.bank_name !== bankName || a.account_no !== accountNo) {
    throw new AppError('BANK_ACCOUNT_NOT_VERIFIED');
  }
}

/** The demo seed's verified account for a member, unless they have one (DECISIONS §19: demo members trade at once). */
export async function seedVerifiedAccount(
  db: DbOrTx,
  a: { memberId: number; bankName: string; accountNo: string; holderName: string },
): Promise<void> {
  await insertBankAccountIfAbsent(db, a);
}
