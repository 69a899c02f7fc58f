import {
  ACCOUNT_NO_PATTERN,
  accountNoFitsBank,
  type CountryCode,
  isMobileE164,
  loginIdField,
  nicknameField,
  passwordField,
  toE164,
} from '@p2p/contract';
import { firstIssue } from './form-rules';

/* Single-field rules of SPEC §5 shared by signup, modify and password reset: each returns a field code
   (texts in common:fields) or undefined. */

/** ID rules: required, 4-16, letters and digits (SPEC §5). Returns a field code or undefined. */
export function loginIdError(loginId: string): string | undefined {
  if (!loginId) return 'ID_REQUIRED';
  return firstIssue(loginIdField, loginId);
}

export function nicknameError(nickname: string): string | undefined {
  if (!nickname.trim()) return 'NICKNAME_REQUIRED';
  return firstIssue(nicknameField, nickname);
}

export function passwordError(password: string): string | undefined {
  if (!password) return 'PASSWORD_REQUIRED';
  return firstIssue(passwordField, password);
}

/**
 * Phone: required, convertible to E.164 for the chosen country (SPEC §5), and a mobile number there
 * (libphonenumber type MOBILE: a landline such as 02-123-4567 cannot receive the code).
 */
export function phoneError(countryCode: CountryCode, phone: string): string | undefined {
  if (!phone.trim()) return 'PHONE_REQUIRED';
  const e164 = toE164(countryCode, phone);
  if (!e164) return 'PHONE_INVALID';
  return isMobileE164(e164) ? undefined : 'PHONE_NOT_MOBILE';
}

/**
 * Account number: required, digits optionally grouped with hyphens, as many digits as the chosen bank's
 * accounts have (the contract's table; the API checks the same). Returns a field code or undefined.
 */
export function accountNoError(bankName: string, accountNo: string): string | undefined {
  const v = accountNo.trim();
  if (!v) return 'ACCOUNT_NO_REQUIRED';
  if (!ACCOUNT_NO_PATTERN.test(v)) return 'ACCOUNT_NO_DIGITS';
  return !bankName || accountNoFitsBank(bankName, v) ? undefined : 'ACCOUNT_NO_LENGTH';
}
