import { COUNTRY_CODES, nameField } from '@p2p/contract';
import { z } from 'zod';
import { loginIdError, nicknameError, passwordError, phoneError } from '../../lib/field-rules';
import { firstIssue, schemaOf } from '../../lib/form-rules';

export { loginIdError, nicknameError, passwordError, phoneError } from '../../lib/field-rules';

const signupObject = z.object({
  name: z.string(),
  loginId: z.string(),
  nickname: z.string(),
  password: z.string(),
  passwordConfirm: z.string(),
  countryCode: z.enum(COUNTRY_CODES),
  phone: z.string(),
  code: z.string(),
  idChecked: z.boolean(),
  nicknameChecked: z.boolean(),
  phoneVerified: z.boolean(),
});

/** The /signup form (SPEC §2, §5). The three flags are set by the availability and phone checks. */
export type SignupValues = z.infer<typeof signupObject>;

export type SignupErrors = Partial<Record<keyof SignupValues & string, string>>;

/**
 * Every signup rule of SPEC §5, field -> field code (texts in common:fields). Submit needs name, a checked
 * ID and nickname, a valid password with an equal confirmation, a phone, a code and a verified phone.
 */
export function validateSignup(v: SignupValues): SignupErrors {
  const e: SignupErrors = {};
  e.name = v.name.trim() ? firstIssue(nameField, v.name) : 'NAME_REQUIRED';
  e.loginId = loginIdError(v.loginId) ?? (v.idChecked ? undefined : 'ID_CHECK_REQUIRED');
  e.nickname = nicknameError(v.nickname) ?? (v.nicknameChecked ? undefined : 'NICKNAME_CHECK_REQUIRED');
  e.password = passwordError(v.password);
  e.passwordConfirm = v.passwordConfirm === v.password ? undefined : 'PASSWORD_MISMATCH';
  if (!v.passwordConfirm && v.password) e.passwordConfirm = 'PASSWORD_MISMATCH';
  e.phone = phoneError(v.countryCode, v.phone);
  e.code = v.code.trim() ? (v.phoneVerified ? undefined : 'VERIFY_REQUIRED') : 'CODE_REQUIRED';
  return Object.fromEntries(Object.entries(e).filter(([, m]) => m)) as SignupErrors;
}

export const signupSchema = schemaOf(signupObject, validateSignup);
