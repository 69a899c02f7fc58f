import { z } from 'zod';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);

/**
 * The environment of DECISIONS §19's money side (1원 인증, withdrawal holds, Travel Rule), spread into the
 * schema of config.ts; a file of its own so the other §19 work merges beside it.
 */
export const TRUST_ENV = {
  BANK_VERIFY_PROVIDER: z.enum(['console']).optional(),
  BANK_VERIFY_REQUIRED: bool.default(true),
  BANK_VERIFY_CODE_TTL_SEC: z.coerce.number().int().min(30).default(600),
  BANK_VERIFY_MAX_TRIES: z.coerce.number().int().min(1).default(5),
  BANK_VERIFY_PER_MEMBER_PER_HOUR: int(5),
  BANK_VERIFY_PER_IP_PER_HOUR: int(30),
  WITHDRAW_HOLD_SEC: int(86_400),
  WITHDRAW_HOLD_NEW_SEC: int(259_200),
  TRAVEL_RULE_MIN_KRW: z.coerce.number().int().min(0).default(1_000_000),
  TRAVEL_RULE_PROVIDER: z.enum(['console']).optional(),
};

type TrustEnv = z.output<z.ZodObject<typeof TRUST_ENV>>;

/** DECISIONS §19, the money side; see docs/operations.md "Knowing who trades". */
export interface TrustConfig {
  bank: {
    /** BANK_VERIFY_PROVIDER: who sends the 1 KRW; null = none configured (production without one). */
    provider: 'console' | null;
    /** BANK_VERIFY_REQUIRED: a listing pays only into a verified account. */
    required: boolean;
    codeTtlSec: number;
    maxTries: number;
    perMemberPerHour: number;
    perIpPerHour: number;
  };
  holds: {
    /** WITHDRAW_HOLD_SEC: how long received coins wait before an external withdrawal. */
    holdSec: number;
    /** WITHDRAW_HOLD_NEW_SEC: the same for coins received during a member's first NEW_MEMBER_DAYS. */
    newMemberHoldSec: number;
  };
  travelRule: {
    /** TRAVEL_RULE_MIN_KRW: from this worth (whole won) an external withdrawal needs a beneficiary. */
    minKrw: number;
    provider: 'console';
  };
}

/** A member counts as new for the hold (WITHDRAW_HOLD_NEW_SEC) during this many days after sign-up. */
export const NEW_MEMBER_DAYS = 30;

/**
 * The hold in seconds on coins a member receives at `at` (DECISIONS §19): WITHDRAW_HOLD_NEW_SEC while `at` is
 * within NEW_MEMBER_DAYS of `memberSince` (sign-up), else WITHDRAW_HOLD_SEC; 0 = no hold. The one place of the
 * rule: the holds of received coins, the refusal of an external delivery and the purchase screen's hint.
 */
export function holdSecAt(s: TrustConfig['holds'], memberSince: Date, at: Date): number {
  const isNew = at.getTime() < memberSince.getTime() + NEW_MEMBER_DAYS * 86_400_000;
  return isNew ? s.newMemberHoldSec : s.holdSec;
}

/**
 * The §19 settings. Throws (refusing to start) when the console bank or Travel Rule provider is chosen in
 * production: a console provider sends nothing, so every account would "verify" without a bank.
 */
export function trustConfig(e: TrustEnv, isProduction: boolean): TrustConfig {
  if (isProduction && e.BANK_VERIFY_PROVIDER === 'console') {
    throw new Error('invalid configuration: BANK_VERIFY_PROVIDER=console is refused in production');
  }
  if (isProduction && e.TRAVEL_RULE_PROVIDER === 'console') {
    throw new Error('invalid configuration: TRAVEL_RULE_PROVIDER=console is refused in production');
  }
  return {
    bank: {
      provider: e.BANK_VERIFY_PROVIDER ?? (isProduction ? null : 'console'),
      required: e.BANK_VERIFY_REQUIRED,
      codeTtlSec: e.BANK_VERIFY_CODE_TTL_SEC,
      maxTries: e.BANK_VERIFY_MAX_TRIES,
      perMemberPerHour: e.BANK_VERIFY_PER_MEMBER_PER_HOUR,
      perIpPerHour: e.BANK_VERIFY_PER_IP_PER_HOUR,
    },
    holds: { holdSec: e.WITHDRAW_HOLD_SEC, newMemberHoldSec: e.WITHDRAW_HOLD_NEW_SEC },
    travelRule: { minKrw: e.TRAVEL_RULE_MIN_KRW, provider: 'console' },
  };
}
