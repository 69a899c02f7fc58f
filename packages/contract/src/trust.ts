import { z } from 'zod';
import { FIELD_CODES as F } from './errors.ts';
import { accountNoField, bankNameField, coinField, hasUnsafeChars, qtyField } from './fields.ts';
import { StepUp } from './identity.ts';

/**
 * Knowing who trades (DECISIONS §19): the verified bank account ("1원 인증"), the withdrawal hold and the
 * Travel Rule's beneficiary. Shapes shared by the API and the web app.
 */

/** The 1원 code: the 4 digits after the depositor prefix of the 1 KRW deposit (e.g. "P2P 4831"). */
export const BANK_CODE_LENGTH = 4;

/**
 * How a name is compared (DECISIONS §19): NFC, whitespace runs collapsed to one space, trimmed; then
 * compared exactly (so "홍길동" and "홍 길동" differ, and so do "Kim" and "KIM").
 */
export function normalizePersonName(s: string): string {
  return s.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** POST /api/v1/bank-account/verify/request: the account to prove; a change of a verified one needs stepUp. */
export const bankVerifyRequestBody = z.object({
  bankName: bankNameField.refine((v) => !v.includes('\u0000'), F.INVALID_FORMAT),
  accountNo: accountNoField,
  /** DECISIONS §13: required when the member already has a verified account (a change). */
  stepUp: StepUp.optional(),
});
export type BankVerifyRequestBody = z.infer<typeof bankVerifyRequestBody>;

export const bankVerifyRequestOut = z.object({
  bankName: z.string(),
  accountNo: z.string(),
  /** When the code stops working (ISO). */
  expiresAt: z.string(),
  triesLeft: z.number().int(),
});
export type BankVerifyRequestOut = z.infer<typeof bankVerifyRequestOut>;

/** POST /api/v1/bank-account/verify: the code read from the 1 KRW deposit's depositor name. */
export const bankVerifyBody = z.object({
  code: z
    .string(F.REQUIRED)
    .trim()
    .regex(new RegExp(`^\\d{${BANK_CODE_LENGTH}}$`), F.INVALID_FORMAT),
});
export type BankVerifyBody = z.infer<typeof bankVerifyBody>;

/** The member's verified bank account (GET /api/v1/bank-account and the verify answer). */
export const verifiedBankAccount = z.object({
  bankName: z.string(),
  accountNo: z.string(),
  holderName: z.string(),
  verifiedAt: z.string(),
});
export type VerifiedBankAccount = z.infer<typeof verifiedBankAccount>;

/** GET /api/v1/bank-account: the verified account (or null), the open request (or null), the policy. */
export const bankAccountState = z.object({
  verified: verifiedBankAccount.nullable(),
  pending: bankVerifyRequestOut.nullable(),
  /** BANK_VERIFY_REQUIRED: listings need a verified account. */
  required: z.boolean(),
});
export type BankAccountState = z.infer<typeof bankAccountState>;

/** GET /dev/bank/outbox?accountNo= (console provider, outside production only). */
export const bankOutboxQuery = z.object({ accountNo: accountNoField });
export const bankOutboxOut = z.object({ depositorName: z.string(), code: z.string(), sentAt: z.string() });

export const BENEFICIARY_KINDS = ['VASP', 'SELF_HOSTED'] as const;
export type BeneficiaryKind = (typeof BENEFICIARY_KINDS)[number];

/** Letters (any script), combining marks, spaces and the . ' - of names like "O'Neil"; nothing else. */
const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} .'-]*$/u;

const beneficiaryName = z
  .string(F.REQUIRED)
  .transform(normalizePersonName)
  .refine((v) => v.length > 0, F.REQUIRED)
  .refine((v) => v.length <= 100, F.TOO_LONG)
  .refine((v) => !hasUnsafeChars(v) && PERSON_NAME.test(v), F.INVALID_FORMAT);

const vaspName = z
  .string(F.INVALID_TYPE)
  .transform(normalizePersonName)
  .refine((v) => v.length <= 100, F.TOO_LONG)
  .refine((v) => !hasUnsafeChars(v), F.INVALID_FORMAT);

/**
 * The Travel Rule's beneficiary of an external withdrawal (DECISIONS §19): the receiver's name, whether the
 * address is at another exchange (VASP, whose name is then required) or the receiver's own wallet.
 */
export const beneficiary = z
  .object({
    name: beneficiaryName,
    kind: z.enum(BENEFICIARY_KINDS, F.INVALID_FORMAT),
    vaspName: vaspName.nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'VASP' && !b.vaspName)
      ctx.addIssue({ code: 'custom', path: ['vaspName'], message: F.REQUIRED });
  })
  .transform((b) => ({ ...b, vaspName: b.kind === 'VASP' ? (b.vaspName ?? null) : null }));
export type Beneficiary = z.infer<typeof beneficiary>;

/** What operators see of a withdrawal's Travel Rule record (null when the amount did not need one). */
export const travelRuleRecord = z.object({
  originatorName: z.string(),
  beneficiaryName: z.string(),
  beneficiaryKind: z.enum(BENEFICIARY_KINDS),
  vaspName: z.string().nullable(),
  /** The withdrawal's worth in whole won at the price used, null when no price was available. */
  valueKrw: z.number().int().nullable(),
  provider: z.string(),
  providerRef: z.string().nullable(),
});
export type TravelRuleRecord = z.infer<typeof travelRuleRecord>;

/** GET /api/v1/travel-rule/quote?coinCode=&amount=: whether this amount needs a beneficiary (the withdraw screen). */
export const travelRuleQuoteQuery = z.object({ coinCode: coinField, amount: qtyField() });
export const travelRuleQuoteOut = z.object({
  required: z.boolean(),
  minKrw: z.number().int(),
  valueKrw: z.number().int().nullable(),
});
export type TravelRuleQuoteOut = z.infer<typeof travelRuleQuoteOut>;
