import { randomBytes, randomInt } from 'node:crypto';
import type { Coin, Role } from '@p2p/contract';
import { toUnits } from '@p2p/contract';
import {
  type LedgerCheckOptions,
  ledgerCheckTick,
  movements,
  post,
  requestFullCheck,
  type TickOutcome,
} from '../src/ledger/index.ts';
import { hashPassword, openSession } from '../src/modules/identity/index.ts';
import { grantKycLevel } from '../src/modules/kyc/index.ts';
import { createWallet } from '../src/modules/wallets/index.ts';
import type { TestApp } from './helpers.ts';

export interface FixtureMember {
  id: number;
  loginId: string;
  nickname: string;
  name: string;
  phoneE164: string;
  token: string;
  /** The member's password, for the step-up of withdrawals and order completion (DECISIONS §13). */
  password: string;
}

/** Every fixture member's password; hashed once per process (argon2 is slow on purpose). */
export const FIXTURE_PASSWORD = 'fixture-pass1';
let fixtureHash: Promise<string> | undefined;
function fixturePasswordHash(): Promise<string> {
  fixtureHash ??= hashPassword(FIXTURE_PASSWORD);
  return fixtureHash;
}

/**
 * Inserts a member straight into the database (at identity level 2 unless `kycLevel` says otherwise) and
 * signs an access token for it. For tests of modules other than identity, which go through the real HTTP
 * signup instead.
 */
export async function createMember(
  t: TestApp,
  o: { role?: Role; name?: string; countryCode?: '82' | '1' | '81'; kycLevel?: 0 | 1 | 2 } = {},
): Promise<FixtureMember> {
  const suffix = randomBytes(4).toString('hex');
  const loginId = `m${suffix}`;
  const phoneE164 = `+8210${String(randomInt(60_000_000, 99_999_999))}`;
  const row = await t.app.deps.db
    .insertInto('members')
    .values({
      login_id: loginId,
      nickname: `n${suffix}`,
      name: o.name ?? 'Hong Gildong',
      country_code: o.countryCode ?? '82',
      phone_e164: phoneE164,
      password_hash: await fixturePasswordHash(),
      bank_name: 'KB국민은행',
      account_no: '12345678901234',
      suspended_reason: null,
      role: o.role ?? 'MEMBER',
    })
    .returning(['id', 'nickname', 'name'])
    .executeTakeFirstOrThrow();
  // DECISIONS §19: a fixture member trades (level 2: no KYC_REQUIRED, no daily limit) unless a test asks less.
  const level = o.kycLevel ?? 2;
  if (level !== 0) await grantKycLevel(t.app.deps.db, row.id, level);
  const { accessToken: token } = await openSession(t.app.deps, { id: row.id, role: o.role ?? 'MEMBER' });
  return {
    id: row.id,
    loginId,
    nickname: row.nickname,
    name: row.name,
    phoneE164,
    token,
    password: FIXTURE_PASSWORD,
  };
}

/**
 * Marks a phone as verified just now, as a successful POST /sms/verify would: purpose 'signup' without a
 * member, or 'member' by the member `memberId` (DECISIONS §13: a member's check counts for that member only).
 */
export async function markPhoneVerified(
  t: TestApp,
  phoneE164: string,
  purpose: 'signup' | 'member' = 'member',
  memberId: number | null = null,
) {
  await t.app.deps.db
    .insertInto('sms_codes')
    .values({
      phone_e164: phoneE164,
      purpose,
      code_hash: 'fixture',
      expires_at: new Date(Date.now() + 120_000),
      verified_at: new Date(),
      member_id: memberId,
      ip: null,
    })
    .execute();
}

/** Credits `amount` (decimal string) of `coin` to the member's available balance, as a chain deposit would. */
export async function fundMember(t: TestApp, memberId: number, coin: Coin, amount: string): Promise<void> {
  const units = toUnits(amount);
  const txid = `fixture-${randomBytes(8).toString('hex')}`;
  await t.app.deps.db
    .transaction()
    .execute((tx) => post(tx, movements.depositCredit({ coin, txid, index: 0, memberId, units })));
}

/** Creates the member's wallet of `coin` through the real createWallet (derived deposit address). */
export async function createWalletFor(t: TestApp, memberId: number, coin: Coin) {
  return createWallet(t.app.deps.db, memberId, coin);
}

/**
 * Runs the ledger check job by hand to its end (issue 27): the incremental pass over every posting so far and,
 * with `full`, a whole full pass; `o` overrides the options (a small chunk and a zero budget make one chunk a tick).
 */
export async function runLedgerCheck(
  t: TestApp,
  full = true,
  o: Partial<LedgerCheckOptions> = {},
): Promise<TickOutcome> {
  if (full) await requestFullCheck(t.app.deps.db);
  const opts = { settleMs: 0, chunk: 1000, budgetMs: Number.POSITIVE_INFINITY, fullEveryMs: 0, ...o };
  return ledgerCheckTick(t.app.deps.db, t.app.deps.invariants, opts);
}
