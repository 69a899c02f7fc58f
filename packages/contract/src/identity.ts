import { z } from 'zod';
import { MEMBER_STATUSES, ROLES } from './enums.ts';
import { FIELD_CODES as F } from './errors.ts';
import {
  accountNoField,
  accountNoOfBank,
  bankNameField,
  countryCodeField,
  loginIdField,
  nameField,
  nicknameField,
  passwordField,
  phoneE164Field,
  smsCodeField,
} from './fields.ts';
import { isMobileE164 } from './mobile.ts';
import { isE164 } from './phone.ts';

/**
 * Request and response shapes of the identity calls (SPEC §7, DECISIONS §6), shared by the web app and
 * the API. Field names are SPEC's, including `nickName` on PUT /my and `id` on the password-reset calls.
 */

// PostgreSQL text cannot hold NUL: refuse it as a format error instead of letting the insert fail.
const noNul = (v: string) => !v.includes('\u0000');

/** A free-form credential field: bounded so nothing huge reaches argon2, format not revealed at login. */
const credential = z
  .string(F.REQUIRED)
  .min(1, F.REQUIRED)
  .max(128, F.TOO_LONG)
  .refine(noNul, F.INVALID_FORMAT);

/** countryCode as '82' | '1' | '81'; a number (82) is accepted too, as some clients send it that way. */
export const countryCodeInput = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  countryCodeField,
);

/** True when the E.164 number belongs to the given country code. */
export function phoneMatchesCountry(phoneE164: string, countryCode: string): boolean {
  return phoneE164.startsWith(`+${countryCode}`);
}

/** A 6-digit TOTP code (RFC 6238) from an operator's authenticator app (DECISIONS §13). */
export const totpCodeField = z.string(F.REQUIRED).regex(/^\d{6}$/, F.INVALID_FORMAT);

/** `totpCode` is needed only by an operator who enrolled a second factor (DECISIONS §13). */
export const LoginBody = z.object({
  loginId: credential,
  password: credential,
  totpCode: totpCodeField.optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** Login and refresh result: a 15-minute access JWT and a rotated opaque refresh token. */
export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const RefreshBody = z.object({
  refreshToken: z.string(F.REQUIRED).min(1, F.REQUIRED).max(256, F.TOO_LONG),
});

export const FindPhoneBody = z.object({ id: credential });
/** find-phone answers the member's phone masked, e.g. "+82 ***-****-5678" style (DECISIONS §6). */
export const FindPhoneOut = z.object({ phone: z.string() });

/**
 * Password-reset verification: `phone` may be the full E.164 number or the masked phone find-phone gave;
 * either way the code was sent to the member's stored phone.
 */
export const VerifyResetBody = z.object({
  id: credential,
  code: smsCodeField,
  phone: z.string(F.INVALID_TYPE).max(32, F.TOO_LONG).optional(),
});
export const ResetTicketOut = z.object({ resetTicket: z.string(), expiresInSec: z.number().int() });
export type ResetTicketOut = z.infer<typeof ResetTicketOut>;

export const ResetPasswordBody = z.object({
  resetTicket: z.string(F.REQUIRED).min(1, F.REQUIRED).max(256, F.TOO_LONG),
  newPassword: passwordField,
});

/** The phone belongs to the chosen country and is a mobile number there (an SMS must reach it). */
function phoneOfCountry<T extends { countryCode: string; phoneE164: string }>(v: T, ctx: z.RefinementCtx) {
  if (!phoneMatchesCountry(v.phoneE164, v.countryCode)) {
    ctx.addIssue({ code: 'custom', path: ['phoneE164'], message: F.PHONE_INVALID });
  } else if (!isMobileE164(v.phoneE164)) {
    ctx.addIssue({ code: 'custom', path: ['phoneE164'], message: F.PHONE_NOT_MOBILE });
  }
}

export const SignupBody = z
  .object({
    loginId: loginIdField,
    password: passwordField,
    name: nameField.refine(noNul, F.INVALID_FORMAT),
    nickname: nicknameField.refine(noNul, F.INVALID_FORMAT),
    countryCode: countryCodeInput,
    phoneE164: phoneE164Field,
  })
  .superRefine(phoneOfCountry);
export type SignupBody = z.infer<typeof SignupBody>;
export const SignupOut = z.object({ id: z.number().int(), loginId: z.string(), nickname: z.string() });

export const CheckIdBody = z.object({ loginId: loginIdField });
export const CheckNicknameBody = z.object({ nickname: nicknameField.refine(noNul, F.INVALID_FORMAT) });
export const AvailabilityOut = z.object({ available: z.boolean() });

/** GET /my: the member profile (SPEC §3 userInfo plus id, role, status, createdAt). */
export const Profile = z.object({
  id: z.number().int(),
  loginId: z.string(),
  nickname: z.string(),
  name: z.string(),
  countryCode: z.string(),
  phoneE164: z.string(),
  bankName: z.string().nullable(),
  accountNo: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(MEMBER_STATUSES),
  /** DECISIONS §19: 0 phone only, 1 identity verified, 2 ID document reviewed. */
  kycLevel: z.number().int().min(0).max(2),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof Profile>;

/** Optional new password: '' or absent = unchanged, otherwise the SPEC §5 password rules. */
const optionalPassword = z
  .string(F.INVALID_TYPE)
  .max(128, F.PASSWORD_LENGTH)
  .optional()
  .superRefine((pw, ctx) => {
    if (!pw) return;
    const r = passwordField.safeParse(pw);
    if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? F.INVALID_FORMAT });
  });

/**
 * PUT /my (SPEC §7 field names; `nickName` with a capital N). `currentPassword` is required (by the API, not
 * the schema) when the password, phone or bank account changes (DECISIONS §13); '' or absent = not given.
 */
export const ModifyBody = z
  .object({
    nickName: nicknameField.refine(noNul, F.INVALID_FORMAT),
    password: optionalPassword,
    currentPassword: z.string(F.INVALID_TYPE).max(128, F.TOO_LONG).refine(noNul, F.INVALID_FORMAT).optional(),
    countryCode: countryCodeInput,
    phoneE164: phoneE164Field,
    bankName: bankNameField.refine(noNul, F.INVALID_FORMAT),
    accountNo: accountNoField,
  })
  .superRefine(phoneOfCountry)
  .superRefine(accountNoOfBank);
export type ModifyBody = z.infer<typeof ModifyBody>;

/**
 * A step-up (DECISIONS §13): the member's password, or a fresh SMS code sent to the member's own phone
 * (POST /sms/request while signed in); a code is used once. Required by external withdrawals and by the
 * seller's order completion; absent -> 422 STEP_UP_REQUIRED.
 */
export const StepUp = z.union(
  [z.strictObject({ password: credential }), z.strictObject({ code: smsCodeField })],
  F.INVALID_FORMAT,
);
export type StepUp = z.infer<typeof StepUp>;

/**
 * POST /sms/request. Without a bearer token the code is for signup; with one, for the member's own phone
 * it serves the member's checks (purchase /verify, a step-up), for another phone only moving to that phone
 * (modify, DECISIONS §21). `purpose: 'reset'` + `loginId` sends the password-reset code to that
 * member's stored phone; `phone` is then optional and, when given (full or masked), must be that phone.
 */
export const SmsRequestBody = z
  .object({
    phone: z.string(F.INVALID_TYPE).max(32, F.TOO_LONG).optional(),
    purpose: z.literal('reset', F.INVALID_FORMAT).optional(),
    loginId: z.string(F.INVALID_TYPE).max(64, F.TOO_LONG).refine(noNul, F.INVALID_FORMAT).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.purpose === 'reset') {
      if (!v.loginId) ctx.addIssue({ code: 'custom', path: ['loginId'], message: F.REQUIRED });
    } else if (v.phone === undefined || v.phone === '') {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: F.REQUIRED });
    } else if (!isE164(v.phone)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: F.PHONE_INVALID });
    } else if (!isMobileE164(v.phone)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: F.PHONE_NOT_MOBILE });
    }
  });
export type SmsRequestBody = z.infer<typeof SmsRequestBody>;
/** How long the code sent stays valid, for the client's countdown. */
export const SmsRequestOut = z.object({ expiresInSec: z.number().int() });

export const SmsVerifyBody = z.object({ phone: phoneE164Field, code: smsCodeField });
export const SmsVerifyOut = z.object({ verified: z.literal(true) });

/** GET /dev/sms/outbox (DECISIONS §10, console provider outside production only). */
export const SmsOutboxQuery = z.object({ phone: phoneE164Field });
export const SmsOutboxOut = z.object({ code: z.string(), sentAt: z.string() });
