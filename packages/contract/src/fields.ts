import { z } from 'zod';
import { ACCOUNT_NO_PATTERN, accountNoFitsBank } from './banks.ts';
import { COINS, COUNTRY_CODES } from './enums.ts';
import { FIELD_CODES as F } from './errors.ts';
import { LIMITS } from './limits.ts';
import { isDecimal } from './money.ts';
import { isE164 } from './phone.ts';

/**
 * Field schemas shared by the web forms and the API (SPEC §5). Each failure's message is a stable
 * field code from FIELD_CODES, which the API returns in `returnData.fields` and the web app localizes.
 */
export const loginIdField = z
  .string(F.REQUIRED)
  .min(LIMITS.loginIdMin, F.ID_LENGTH)
  .max(LIMITS.loginIdMax, F.ID_LENGTH)
  .regex(/^[A-Za-z0-9]+$/, F.ID_CHARSET);

// Control (Cc), format (Cf: zero-width characters, bidirectional overrides and isolates), private-use (Co),
// unassigned (Cn) and line/paragraph separators (Zl, Zp): invisible or reordering characters let
// "demo\u200bseller" pass for "demoseller" beside it (DECISIONS §13). Emoji joined with U+200D go too.
const UNSAFE_CHARS = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/** True when `s` holds a character that a public name or bank field must refuse (DECISIONS §13). */
export function hasUnsafeChars(s: string): boolean {
  return UNSAFE_CHARS.test(s);
}

/**
 * A human-visible name: trimmed, NFKC-normalized (so full-width and compatibility forms compare equal before
 * the uniqueness check), and free of control, format and bidirectional characters (INVALID_FORMAT).
 */
function visibleText(requiredCode: string) {
  return z
    .string(requiredCode)
    .trim()
    .normalize('NFKC')
    .refine((v) => !hasUnsafeChars(v), F.INVALID_FORMAT);
}

export const nicknameField = visibleText(F.REQUIRED)
  .check(z.minLength(LIMITS.nicknameMin, F.NICKNAME_LENGTH))
  .check(z.maxLength(LIMITS.nicknameMax, F.NICKNAME_LENGTH));

/** True when the password mixes at least two of: English letters, digits, special characters. */
export function passwordKinds(pw: string): number {
  return [/[A-Za-z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(pw)).length;
}

export const passwordField = z
  .string(F.REQUIRED)
  .min(LIMITS.passwordMin, F.PASSWORD_LENGTH)
  .max(LIMITS.passwordMax, F.PASSWORD_LENGTH)
  .refine((pw) => passwordKinds(pw) >= 2, F.PASSWORD_COMPLEXITY);

// A real name as a bank shows it: Hangul syllables or Latin letters, words separated by spaces.
const REAL_NAME = /^(?:[가-힣]|(?=\p{L})\p{Script=Latin})+(?: +(?:[가-힣]|(?=\p{L})\p{Script=Latin})+)*$/u;

/** True when `name` (trimmed, NFKC) is a real name: Hangul or Latin letters and spaces, 2-30 characters. */
export function isRealName(name: string): boolean {
  const v = name.trim().normalize('NFKC');
  return v.length >= 2 && v.length <= 30 && REAL_NAME.test(v);
}

/**
 * The member's real name (the 예금주 of their listings for ever after): Hangul or Latin letters and spaces,
 * 2-30 characters (NAME_INVALID otherwise; REQUIRED when blank).
 */
export const nameField = visibleText(F.REQUIRED)
  .check(z.minLength(1, F.REQUIRED))
  .refine(isRealName, F.NAME_INVALID);
export const countryCodeField = z.enum(COUNTRY_CODES, F.INVALID_FORMAT);
export const coinField = z.enum(COINS, F.INVALID_FORMAT);
export const phoneE164Field = z.string(F.REQUIRED).max(16, F.PHONE_INVALID).refine(isE164, F.PHONE_INVALID);
export const smsCodeField = z
  .string(F.REQUIRED)
  .regex(new RegExp(`^\\d{${LIMITS.smsCodeLength}}$`), F.INVALID_FORMAT);

/** A coin quantity as a decimal string with at most `decimals` fractional digits, greater than zero. */
export function qtyField(decimals: number = LIMITS.qtyDecimals) {
  return z
    .string(F.REQUIRED)
    .max(32, F.TOO_LONG)
    .refine((s) => isDecimal(s, 8), F.AMOUNT_INVALID)
    .refine((s) => isDecimal(s, decimals), F.AMOUNT_DECIMALS)
    .refine((s) => /[1-9]/.test(s), F.AMOUNT_NOT_POSITIVE);
}

/** Whole won, positive, within the safe integer range. */
export const krwField = z
  .number(F.INVALID_TYPE)
  .int(F.PRICE_INTEGER)
  .positive(F.AMOUNT_NOT_POSITIVE)
  .max(Number.MAX_SAFE_INTEGER, F.TOO_LONG);

export const bankNameField = visibleText(F.BANK_REQUIRED)
  .check(z.minLength(1, F.BANK_REQUIRED))
  .check(z.maxLength(50, F.TOO_LONG));
/**
 * An account number as typed: digits, optionally grouped with hyphens (ACCOUNT_NO_DIGITS otherwise), stored
 * and compared as digits only (hyphens dropped). Its length per bank is checked beside the bank name
 * (accountNoOfBank).
 */
export const accountNoField = z
  .string(F.BANK_REQUIRED)
  .trim()
  .min(1, F.BANK_REQUIRED)
  .max(30, F.TOO_LONG)
  .regex(ACCOUNT_NO_PATTERN, F.ACCOUNT_NO_DIGITS)
  .transform((v) => v.replace(/-/g, ''));

/**
 * A refinement for bodies with `bankName` and `accountNo`: ACCOUNT_NO_LENGTH on accountNo when its digits do
 * not fit the bank's range (banks.ts BANK_ACCOUNT_DIGITS).
 */
export function accountNoOfBank(v: { bankName: string; accountNo: string }, ctx: z.RefinementCtx): void {
  if (!accountNoFitsBank(v.bankName, v.accountNo)) {
    ctx.addIssue({ code: 'custom', path: ['accountNo'], message: F.ACCOUNT_NO_LENGTH });
  }
}

/** Numeric ids as the member API shows them. Path params arrive as strings and are coerced. */
export const idParam = z.coerce
  .number(F.INVALID_FORMAT)
  .int(F.INVALID_FORMAT)
  .positive(F.INVALID_FORMAT)
  .max(2 ** 52, F.INVALID_FORMAT);

/** Opaque keyset cursor (base64url), bounded. */
export const cursorField = z
  .string()
  .max(200, F.TOO_LONG)
  .regex(/^[A-Za-z0-9_-]*$/, F.INVALID_FORMAT);
