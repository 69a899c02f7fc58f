import { describe, expect, it } from 'vitest';
import { type FindPwValues, findPwSchema, validateNewPassword } from './findpw-rules';

const valid: FindPwValues = {
  loginId: 'minsoo1',
  code: '123456',
  password: 'newpass99!',
  confirm: 'newpass99!',
};

describe('find password rules (SPEC §2, §5)', () => {
  it('accepts a valid password with an equal confirmation', () => {
    expect(validateNewPassword(valid)).toEqual({});
    expect(findPwSchema.safeParse(valid).success).toBe(true);
  });
  it('asks for a password and an equal confirmation', () => {
    expect(validateNewPassword({ ...valid, password: '', confirm: '' })).toEqual({
      password: 'PASSWORD_REQUIRED',
    });
    expect(validateNewPassword({ ...valid, confirm: 'newpass98!' })).toEqual({
      confirm: 'PASSWORD_MISMATCH',
    });
  });
  it('reports the field code on the field path', () => {
    const r = findPwSchema.safeParse({ ...valid, confirm: 'x' });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['confirm', 'PASSWORD_MISMATCH'],
    ]);
  });
});
