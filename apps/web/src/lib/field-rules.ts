import { type CountryCode, loginIdField, nicknameField, passwordField, toE164 } from '@p2p/contract';
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

/** Phone: required, convertible to E.164 for the chosen country (SPEC §5). */
export function phoneError(countryCode: CountryCode, phone: string): string | undefined {
  if (!phone.trim()) return 'PHONE_REQUIRED';
  return toE164(countryCode, phone) ? undefined : 'PHONE_INVALID';
}
