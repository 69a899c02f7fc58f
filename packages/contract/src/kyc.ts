import { z } from 'zod';
import { pageOf } from './envelope.ts';
import { FIELD_CODES as F } from './errors.ts';
import { hasUnsafeChars, smsCodeField } from './fields.ts';
import { opsReasonField } from './ops.ts';

/**
 * Identity levels (DECISIONS §19): shapes shared by the API and the web app, the name and age rules, the
 * document limits.
 */

/** 0 phone only, 1 identity verified through the identity provider, 2 ID document reviewed by an operator. */
export const KYC_LEVELS = [0, 1, 2] as const;
export type KycLevel = (typeof KYC_LEVELS)[number];

/** Korean age of majority for these services (민법 §4): full years on today's Seoul date. */
export const KYC_MIN_AGE = 19;
/** The largest ID document upload: 10 MB (DECISIONS §19). */
export const KYC_DOC_MAX_BYTES = 10 * 1024 * 1024;
/** Wrong codes one identity request takes before a new request is needed. */
export const KYC_CODE_MAX_TRIES = 5;
export const KYC_DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type KycDocumentStatus = (typeof KYC_DOCUMENT_STATUSES)[number];

/**
 * A name as identity checks compare it: Unicode NFC, every run of white space one space, trimmed. Then the
 * comparison is exact: "Kim  Test" equals "Kim Test", "kim test" does not (DECISIONS §19).
 */
export function normalizeKycName(name: string): string {
  return name.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** Today's date in Seoul (KST, no daylight saving) as yyyy-MM-dd. */
export function seoulToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

/** True when `s` is a real calendar date written yyyy-MM-dd (2026-02-30 is not). */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * Full years from `birthDate` to `today` (both yyyy-MM-dd): the age goes up on the birthday (a 29 February
 * birthday on 1 March in other years: 민법 §160). Dates compare as strings, so no time zone enters.
 */
export function fullYears(birthDate: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return today.slice(5) >= birthDate.slice(5) ? years : years - 1;
}

const kycNameField = z
  .string(F.REQUIRED)
  .transform(normalizeKycName)
  .refine((v) => v.length > 0, F.REQUIRED)
  .refine((v) => v.length <= 50, F.TOO_LONG)
  .refine((v) => !hasUnsafeChars(v), F.INVALID_FORMAT);

/** A birth date: a calendar date, not after today in Seoul (the age is the API's 422 UNDERAGE). */
export const birthDateField = z
  .string(F.REQUIRED)
  .refine(isCalendarDate, F.DATE_INVALID)
  .refine((v) => v <= seoulToday(), F.DATE_IN_FUTURE);

/** POST /api/v1/kyc/identity: starts the identity check; the provider sends a code to the member's phone. */
export const kycIdentityBody = z.object({ name: kycNameField, birthDate: birthDateField });
export type KycIdentityBody = z.infer<typeof kycIdentityBody>;
export const kycIdentityStarted = z.object({ expiresInSec: z.number().int(), phone: z.string() });
export type KycIdentityStarted = z.infer<typeof kycIdentityStarted>;

/** POST /api/v1/kyc/identity/verify. */
export const kycVerifyBody = z.object({ code: smsCodeField });

/** A member's own ID document as the verification center shows it. */
export const kycDocumentView = z.object({
  id: z.number().int(),
  status: z.enum(KYC_DOCUMENT_STATUSES),
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type KycDocumentView = z.infer<typeof kycDocumentView>;

/**
 * GET /api/v1/kyc: the caller's level, verified name, newest document, and the policy: the level trading and
 * external withdrawals need (0 = none) and the KRW a member below level 2 may trade in 24 h.
 */
export const kycStatus = z.object({
  level: z.number().int().min(0).max(2),
  verifiedName: z.string().nullable(),
  document: kycDocumentView.nullable(),
  tradeLevel: z.number().int(),
  level1DailyKrw: z.number().int(),
  /**
   * DECISIONS §19 holds: when coins bought now could leave by external withdrawal at the earliest (ISO time,
   * now + WITHDRAW_HOLD_SEC, or WITHDRAW_HOLD_NEW_SEC in the member's first 30 days); null = no hold. While it
   * is set a purchase cannot be delivered to an outside address (422 WITHDRAWAL_HELD).
   */
  purchaseHeldUntil: z.string().nullable(),
});
export type KycStatus = z.infer<typeof kycStatus>;

/** The console's review queue row. */
export const opsKycDocument = z.object({
  id: z.number().int(),
  memberId: z.number().int(),
  loginId: z.string(),
  nickname: z.string(),
  name: z.string(),
  verifiedName: z.string().nullable(),
  birthDate: z.string().nullable(),
  kycLevel: z.number().int(),
  status: z.enum(KYC_DOCUMENT_STATUSES),
  contentType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type OpsKycDocument = z.infer<typeof opsKycDocument>;
export const opsKycDocumentPage = pageOf(opsKycDocument);
export const opsKycQuery = z.object({ status: z.enum(KYC_DOCUMENT_STATUSES).optional() });
export const opsKycRejectBody = z.object({ reason: opsReasonField });
