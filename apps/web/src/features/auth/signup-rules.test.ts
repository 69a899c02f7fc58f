import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/common.json';
import { type SignupValues, signupSchema, validateSignup } from './signup-rules';

const valid: SignupValues = {
  name: 'Kim Minsu',
  loginId: 'minsu01',
  nickname: 'minsoo',
  password: 'abc123',
  passwordConfirm: 'abc123',
  countryCode: '82',
  phone: '010-1234-5678',
  code: '123456',
  idChecked: true,
  nicknameChecked: true,
  phoneVerified: true,
};

const text = (code: string | undefined) => (code ? (en.fields as Record<string, string>)[code] : undefined);
const errorOf = (patch: Partial<SignupValues>, field: keyof SignupValues) =>
  text(validateSignup({ ...valid, ...patch })[field]);

describe('signup rules (SPEC §5) with their English texts', () => {
  it('accepts a complete, checked and verified form', () => {
    expect(validateSignup(valid)).toEqual({});
    expect(signupSchema.safeParse(valid).success).toBe(true);
  });

  it('ID: required, 4-16, letters and digits, availability checked', () => {
    expect(errorOf({ loginId: '' }, 'loginId')).toBe('Please enter your ID.');
    expect(errorOf({ loginId: 'abc' }, 'loginId')).toBe('ID must be 4-16 characters long.');
    expect(errorOf({ loginId: 'a'.repeat(17) }, 'loginId')).toBe('ID must be 4-16 characters long.');
    expect(errorOf({ loginId: 'abcd' }, 'loginId')).toBeUndefined();
    expect(errorOf({ loginId: 'a'.repeat(16) }, 'loginId')).toBeUndefined();
    expect(errorOf({ loginId: 'abc_12' }, 'loginId')).toBe(
      'ID can only contain English letters and numbers.',
    );
    expect(errorOf({ loginId: '아이디abc' }, 'loginId')).toBe(
      'ID can only contain English letters and numbers.',
    );
    expect(errorOf({ idChecked: false }, 'loginId')).toBe('Please check ID availability.');
  });

  it('nickname: required, 4-12, availability checked', () => {
    expect(errorOf({ nickname: '' }, 'nickname')).toBe('Please enter a nickname.');
    expect(errorOf({ nickname: '   ' }, 'nickname')).toBe('Please enter a nickname.');
    expect(errorOf({ nickname: 'abc' }, 'nickname')).toBe('Nickname must be 4-12 characters long.');
    expect(errorOf({ nickname: 'a'.repeat(13) }, 'nickname')).toBe('Nickname must be 4-12 characters long.');
    expect(errorOf({ nickname: '닉네임이다' }, 'nickname')).toBeUndefined();
    expect(errorOf({ nicknameChecked: false }, 'nickname')).toBe('Please check nickname availability.');
  });

  it('password: required, 6-20, two kinds, confirmation equal', () => {
    expect(errorOf({ password: '', passwordConfirm: '' }, 'password')).toBe('Please enter a password.');
    expect(errorOf({ password: 'ab1', passwordConfirm: 'ab1' }, 'password')).toBe(
      'Password must be 6-20 characters long.',
    );
    expect(errorOf({ password: `a1${'b'.repeat(19)}` }, 'password')).toBe(
      'Password must be 6-20 characters long.',
    );
    expect(errorOf({ password: 'abcdefgh', passwordConfirm: 'abcdefgh' }, 'password')).toBe(
      'Must include at least two of English letters, numbers, or special characters.',
    );
    expect(errorOf({ password: '12345678', passwordConfirm: '12345678' }, 'password')).toBe(
      'Must include at least two of English letters, numbers, or special characters.',
    );
    expect(errorOf({ password: 'abc!@#', passwordConfirm: 'abc!@#' }, 'password')).toBeUndefined();
    expect(errorOf({ passwordConfirm: 'abc124' }, 'passwordConfirm')).toBe('Passwords do not match.');
    expect(errorOf({ passwordConfirm: '' }, 'passwordConfirm')).toBe('Passwords do not match.');
  });

  it('name, phone and code: required; phone convertible to E.164; code verified', () => {
    expect(errorOf({ name: ' ' }, 'name')).toBe('Please enter your name.');
    expect(errorOf({ phone: '' }, 'phone')).toBe('Please enter your phone number.');
    expect(errorOf({ phone: '12ab' }, 'phone')).toBe('This number cannot be used for verification.');
    expect(errorOf({ countryCode: '1', phone: '010-1234-5678' }, 'phone')).toBe(
      'This number cannot be used for verification.',
    );
    expect(errorOf({ countryCode: '81', phone: '090-1234-5678' }, 'phone')).toBeUndefined();
    expect(errorOf({ code: '' }, 'code')).toBe('Please enter the verification code.');
    expect(errorOf({ phoneVerified: false }, 'code')).toBe('Please complete the verification check.');
  });

  it('the form schema reports the same codes on their fields', () => {
    const r = signupSchema.safeParse({ ...valid, loginId: 'ab', phoneVerified: false });
    expect(r.success).toBe(false);
    const issues = r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual([
      ['loginId', 'ID_LENGTH'],
      ['code', 'VERIFY_REQUIRED'],
    ]);
  });
});
