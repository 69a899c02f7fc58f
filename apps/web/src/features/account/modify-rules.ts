import { COUNTRY_CODES, toE164 } from '@p2p/contract';
import { z } from 'zod';
import { bankNameOf, OTHER_BANK } from '../../lib/banks';
import { accountNoError, nicknameError, passwordError, phoneError } from '../../lib/field-rules';
import { schemaOf } from '../../lib/form-rules';

const modifyObject = z.object({
  nickname: z.string(),
  password: z.string(),
  passwordConfirm: z.string(),
  countryCode: z.enum(COUNTRY_CODES),
  phone: z.string(),
  code: z.string(),
  phoneVerified: z.boolean(),
  bank: z.string(),
  customBank: z.string(),
  accountNo: z.string(),
  currentPassword: z.string(),
});

/** The /modify form (SPEC §5 Modify). Name and login id are shown disabled and not part of it. */
export type ModifyValues = z.infer<typeof modifyObject>;

/**
 * Every Modify rule of SPEC §5, field -> field code: phone verified, nickname non-empty (and its length
 * rule), passwords equal when given (empty = unchanged), phone, bank chosen, custom name for 'other',
 * account number (digits and hyphens, as many digits as the bank's accounts have).
 */
export function validateModify(v: ModifyValues): Partial<Record<keyof ModifyValues, string>> {
  const e: Partial<Record<keyof ModifyValues, string | undefined>> = {
    nickname: nicknameError(v.nickname),
    password: v.password ? passwordError(v.password) : undefined,
    passwordConfirm: v.password === v.passwordConfirm ? undefined : 'PASSWORD_MISMATCH',
    phone: phoneError(v.countryCode, v.phone),
    code: v.phoneVerified ? undefined : 'VERIFY_REQUIRED',
    bank: v.bank ? undefined : 'BANK_REQUIRED',
    customBank: v.bank === OTHER_BANK && !v.customBank.trim() ? 'BANK_NAME_REQUIRED' : undefined,
    accountNo: accountNoError(bankNameOf(v.bank, v.customBank), v.accountNo),
  };
  return Object.fromEntries(Object.entries(e).filter(([, m]) => m)) as Partial<
    Record<keyof ModifyValues, string>
  >;
}

export const modifySchema = schemaOf(modifyObject, validateModify);

/**
 * True when the form changes what DECISIONS §13 guards with the current password: a new password, another
 * phone, or another bank name or account number than the saved profile. The current-password field shows
 * only then, and the API refuses such a change without it (CURRENT_PASSWORD_REQUIRED).
 */
export function needsCurrentPassword(
  v: ModifyValues,
  saved: { phoneE164: string; bankName: string | null; accountNo: string | null } | undefined,
): boolean {
  if (!saved) return false;
  return (
    v.password !== '' ||
    toE164(v.countryCode, v.phone) !== saved.phoneE164 ||
    bankNameOf(v.bank, v.customBank) !== (saved.bankName ?? '') ||
    v.accountNo.trim().replace(/-/g, '') !== (saved.accountNo ?? '')
  );
}
