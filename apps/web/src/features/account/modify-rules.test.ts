import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/common.json';
import kr from '../../i18n/locales/kr/common.json';
import { OTHER_BANK } from '../../lib/banks';
import { type ModifyValues, modifySchema, needsCurrentPassword, validateModify } from './modify-rules';

const valid: ModifyValues = {
  nickname: 'minsoo',
  password: '',
  passwordConfirm: '',
  countryCode: '82',
  phone: '01012345678',
  code: '123456',
  phoneVerified: true,
  bank: '신한은행',
  customBank: '',
  accountNo: '110123456789',
  currentPassword: '',
};

const text = (code: string | undefined, lang = en) =>
  code ? (lang.fields as Record<string, string>)[code] : undefined;
const errorOf = (patch: Partial<ModifyValues>, field: keyof ModifyValues, lang = en) =>
  text(validateModify({ ...valid, ...patch })[field], lang);

describe('modify rules (SPEC §5 Modify)', () => {
  it('accepts the form with an empty password (unchanged)', () => {
    expect(validateModify(valid)).toEqual({});
    expect(modifySchema.safeParse(valid).success).toBe(true);
  });

  it('phone must be verified and valid', () => {
    expect(errorOf({ phoneVerified: false }, 'code')).toBe('Please complete the verification check.');
    expect(errorOf({ phone: '' }, 'phone')).toBe('Please enter your phone number.');
    expect(errorOf({ phone: '0101' }, 'phone')).toBe('This number cannot be used for verification.');
  });

  it('nickname must not be empty (and keeps its length rule)', () => {
    expect(errorOf({ nickname: '' }, 'nickname')).toBe('Please enter a nickname.');
    expect(errorOf({ nickname: 'abc' }, 'nickname')).toBe('Nickname must be 4-12 characters long.');
  });

  it('passwords must be equal when given and follow the password rules', () => {
    expect(errorOf({ password: 'abc123', passwordConfirm: 'abc12' }, 'passwordConfirm')).toBe(
      'Passwords do not match.',
    );
    expect(errorOf({ password: '', passwordConfirm: 'x' }, 'passwordConfirm')).toBe(
      'Passwords do not match.',
    );
    expect(errorOf({ password: 'abc', passwordConfirm: 'abc' }, 'password')).toBe(
      'Password must be 6-20 characters long.',
    );
    expect(errorOf({ password: 'abcdefg', passwordConfirm: 'abcdefg' }, 'password')).toBe(
      'Must include at least two of English letters, numbers, or special characters.',
    );
    expect(validateModify({ ...valid, password: 'abc123!', passwordConfirm: 'abc123!' })).toEqual({});
  });

  it('bank chosen, custom name for 기타, account number digits and hyphens with the bank length', () => {
    expect(errorOf({ bank: '' }, 'bank', kr)).toBe('은행 정보를 입력해주세요.');
    expect(errorOf({ bank: OTHER_BANK, customBank: ' ' }, 'customBank', kr)).toBe(
      '은행명을 직접 입력해주세요.',
    );
    expect(errorOf({ bank: OTHER_BANK, customBank: 'My Bank' }, 'customBank')).toBeUndefined();
    expect(errorOf({ accountNo: '' }, 'accountNo')).toBe('Please enter the account number.');
    expect(errorOf({ accountNo: '110-12a' }, 'accountNo')).toBe(
      'The account number can hold digits and hyphens (-) only.',
    );
    // 신한은행 accounts have 11-12 digits; hyphens are allowed and not counted
    expect(errorOf({ accountNo: '110-123' }, 'accountNo')).toBe(
      "The number of digits does not match the chosen bank's account numbers. Check the number in your bankbook.",
    );
    expect(errorOf({ accountNo: '110-123-456789' }, 'accountNo')).toBeUndefined();
    expect(errorOf({ bank: '카카오뱅크', accountNo: '12' }, 'accountNo')).toBeDefined();
    expect(errorOf({ bank: '카카오뱅크', accountNo: '3333-01-2345678' }, 'accountNo')).toBeUndefined();
  });
});

describe('the current password (DECISIONS §13)', () => {
  const saved = { phoneE164: '+821012345678', bankName: '신한은행', accountNo: '110123456789' };
  it('is asked for a new password, phone, bank or account number, never for a nickname alone', () => {
    expect(needsCurrentPassword(valid, saved)).toBe(false);
    expect(needsCurrentPassword({ ...valid, nickname: 'another1' }, saved)).toBe(false);
    expect(needsCurrentPassword({ ...valid, phone: '010-1234-5678' }, saved)).toBe(false);
    expect(needsCurrentPassword({ ...valid, password: 'newpass1' }, saved)).toBe(true);
    expect(needsCurrentPassword({ ...valid, phone: '01099998888' }, saved)).toBe(true);
    expect(needsCurrentPassword({ ...valid, bank: 'KB국민은행' }, saved)).toBe(true);
    expect(needsCurrentPassword({ ...valid, bank: OTHER_BANK, customBank: '신한은행' }, saved)).toBe(false);
    expect(needsCurrentPassword({ ...valid, accountNo: '999' }, saved)).toBe(true);
    expect(needsCurrentPassword(valid, { ...saved, bankName: null, accountNo: null })).toBe(true);
  });
});
