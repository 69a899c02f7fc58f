import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, randomId, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
});
afterAll(() => t.close());

async function verifiedPhone(token?: string): Promise<string> {
  const phone = randomPhone();
  const code = await requestAndReadCode(t, phone, { token });
  expect((await t.call('POST', '/sms/verify', { body: { phone, code }, token })).status).toBe(200);
  return phone;
}

const validSignup = (phone: string) => ({
  loginId: randomId('s'),
  password: 'abc123!',
  name: 'Lee Test',
  nickname: randomId('k'),
  countryCode: '82',
  phoneE164: phone,
});

async function members(): Promise<number> {
  const r = await t.app.deps.db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('signup refuses every SPEC §5 rule with its stable field code', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    ['id too short', { loginId: 'abc' }, { loginId: 'ID_LENGTH' }],
    ['id too long', { loginId: 'a'.repeat(17) }, { loginId: 'ID_LENGTH' }],
    ['id with underscore', { loginId: 'abc_123' }, { loginId: 'ID_CHARSET' }],
    ['id in hangul', { loginId: '한글아이디' }, { loginId: 'ID_CHARSET' }],
    ['id missing', { loginId: undefined }, { loginId: 'REQUIRED' }],
    ['nickname too short', { nickname: 'abc' }, { nickname: 'NICKNAME_LENGTH' }],
    ['nickname too long', { nickname: 'a'.repeat(13) }, { nickname: 'NICKNAME_LENGTH' }],
    ['nickname only spaces around 3 chars', { nickname: '   abc   ' }, { nickname: 'NICKNAME_LENGTH' }],
    ['password too short', { password: 'ab12!' }, { password: 'PASSWORD_LENGTH' }],
    ['password too long', { password: `a1${'b'.repeat(19)}` }, { password: 'PASSWORD_LENGTH' }],
    ['password letters only', { password: 'abcdefgh' }, { password: 'PASSWORD_COMPLEXITY' }],
    ['password digits only', { password: '12345678' }, { password: 'PASSWORD_COMPLEXITY' }],
    ['password specials only', { password: '!@#$%^&*' }, { password: 'PASSWORD_COMPLEXITY' }],
    ['name empty', { name: '   ' }, { name: 'REQUIRED' }],
    ['name missing', { name: undefined }, { name: 'REQUIRED' }],
    ['name of emoji', { name: '😀🔥' }, { name: 'NAME_INVALID' }],
    ['name with digits', { name: '김민수1' }, { name: 'NAME_INVALID' }],
    ['name of one letter', { name: '김' }, { name: 'NAME_INVALID' }],
    ['name over 30', { name: 'a'.repeat(31) }, { name: 'NAME_INVALID' }],
    ['name with a symbol', { name: 'Kim-Minsu' }, { name: 'NAME_INVALID' }],
    ['a landline (02-123-4567)', { phoneE164: '+8221234567' }, { phoneE164: 'PHONE_NOT_MOBILE' }],
    ['country not supported', { countryCode: '44' }, { countryCode: 'INVALID_FORMAT' }],
    ['phone not E.164', { phoneE164: '01012345678' }, { phoneE164: 'PHONE_INVALID' }],
    ['phone too short', { phoneE164: '+82101' }, { phoneE164: 'PHONE_INVALID' }],
    ['phone of another country', { countryCode: '1' }, { phoneE164: 'PHONE_INVALID' }],
  ];
  it.each(cases)('%s', async (_name, patch, fields) => {
    const phone = await verifiedPhone();
    const before = await members();
    const res = await t.call('POST', '/api/v1/members/signup', { body: { ...validSignup(phone), ...patch } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ returnCode: 400, returnMessage: 'VALIDATION_FAILED', returnData: { fields } });
    expect(await members()).toBe(before);
  });

  it('accepts the boundaries (4 and 16 char id, 4 and 12 char nickname, 6 and 20 char password)', async () => {
    for (const [loginId, nickname, password] of [
      [randomId('').slice(0, 4), randomId('').slice(0, 4), 'abcd1!'],
      [`${randomId('b')}${'x'.repeat(7)}`, `${randomId('c')}xxx`, `a1${'z'.repeat(18)}`],
    ] as const) {
      const phone = await verifiedPhone();
      const res = await t.call('POST', '/api/v1/members/signup', {
        body: { ...validSignup(phone), loginId, nickname, password },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  it('takes countryCode as a number too, and a US or Japanese phone of that country', async () => {
    const kr = await verifiedPhone();
    const asNumber = await t.call('POST', '/api/v1/members/signup', {
      body: { ...validSignup(kr), countryCode: 82 },
    });
    expect(asNumber.status, JSON.stringify(asNumber.body)).toBe(201);
    for (const [cc, phone] of [
      ['1', `+14152${String(Date.now()).slice(-6)}`],
      ['81', `+8190${String(Date.now()).slice(-8)}`],
    ] as const) {
      const code = await requestAndReadCode(t, phone);
      expect((await t.call('POST', '/sms/verify', { body: { phone, code } })).status).toBe(200);
      const res = await t.call('POST', '/api/v1/members/signup', {
        body: { ...validSignup(phone), countryCode: cc },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  it('check-id and check-nickname validate the format too', async () => {
    const id = await t.call('POST', '/api/v1/members/check-id', { body: { loginId: 'ab' } });
    expect(id.body).toEqual({
      returnCode: 400,
      returnMessage: 'VALIDATION_FAILED',
      returnData: { fields: { loginId: 'ID_LENGTH' } },
    });
    const nick = await t.call('POST', '/api/v1/members/check-nickname', {
      body: { nickname: 'x'.repeat(13) },
    });
    expect(nick.body.returnData).toEqual({ fields: { nickname: 'NICKNAME_LENGTH' } });
  });

  it('needs a signup verification of that phone within the last 10 minutes', async () => {
    const never = await t.call('POST', '/api/v1/members/signup', { body: validSignup(randomPhone()) });
    expect(never.status).toBe(400);
    expect(never.body.returnMessage).toBe('PHONE_NOT_VERIFIED');

    const old = await verifiedPhone();
    await t.app.deps.db
      .updateTable('sms_codes')
      .set({ verified_at: new Date(Date.now() - 11 * 60_000) })
      .where('phone_e164', '=', old)
      .execute();
    expect(
      (await t.call('POST', '/api/v1/members/signup', { body: validSignup(old) })).body.returnMessage,
    ).toBe('PHONE_NOT_VERIFIED');

    // Requested but never verified.
    const pending = randomPhone();
    await requestAndReadCode(t, pending);
    expect(
      (await t.call('POST', '/api/v1/members/signup', { body: validSignup(pending) })).body.returnMessage,
    ).toBe('PHONE_NOT_VERIFIED');
  });

  it('refuses a taken id (any case), nickname and phone with 409', async () => {
    const a = await signupAndLogin(t);
    const idTaken = await t.call('POST', '/api/v1/members/signup', {
      body: { ...validSignup(await verifiedPhone()), loginId: a.loginId.toUpperCase() },
    });
    expect(idTaken.status).toBe(409);
    expect(idTaken.body.returnMessage).toBe('LOGIN_ID_TAKEN');
    const nickTaken = await t.call('POST', '/api/v1/members/signup', {
      body: { ...validSignup(await verifiedPhone()), nickname: a.nickname.toUpperCase() },
    });
    expect(nickTaken.body.returnMessage).toBe('NICKNAME_TAKEN');
    // The phone is refused both when asking for a signup code and at signup.
    const askCode = await t.call('POST', '/sms/request', { body: { phone: a.phone } });
    expect(askCode.status).toBe(409);
    expect(askCode.body.returnMessage).toBe('PHONE_TAKEN');
    await t.app.deps.db
      .insertInto('sms_codes')
      .values({
        phone_e164: a.phone,
        purpose: 'signup',
        code_hash: 'x',
        expires_at: new Date(Date.now() + 60_000),
        verified_at: new Date(),
        member_id: null,
        ip: null,
      })
      .execute();
    const phoneTaken = await t.call('POST', '/api/v1/members/signup', { body: validSignup(a.phone) });
    expect(phoneTaken.status).toBe(409);
    expect(phoneTaken.body.returnMessage).toBe('PHONE_TAKEN');
  });

  it('lets exactly one of many racing signups with the same id win', async () => {
    const loginId = randomId('race');
    const phones = await Promise.all(Array.from({ length: 8 }, () => verifiedPhone()));
    const results = await Promise.all(
      phones.map((phone) =>
        t.call('POST', '/api/v1/members/signup', { body: { ...validSignup(phone), loginId } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201))
      expect(r.body.returnMessage).toBe('LOGIN_ID_TAKEN');
  });
});

describe('PUT /my refuses every SPEC §5 Modify rule', () => {
  const base = (m: { nickname: string; phone: string; password: string }) => ({
    nickName: m.nickname,
    password: '',
    currentPassword: m.password,
    countryCode: '82',
    phoneE164: m.phone,
    bankName: '신한은행',
    accountNo: '110123456789',
  });

  it('field rules with stable codes, nothing written', async () => {
    const m = await signupAndLogin(t);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ nickName: '' }, { nickName: 'NICKNAME_LENGTH' }],
      [{ nickName: 'abcdefghijklm' }, { nickName: 'NICKNAME_LENGTH' }],
      [{ nickName: undefined }, { nickName: 'REQUIRED' }],
      [{ password: 'ab1' }, { password: 'PASSWORD_LENGTH' }],
      [{ password: 'abcdefgh' }, { password: 'PASSWORD_COMPLEXITY' }],
      [{ password: 'x1'.repeat(11) }, { password: 'PASSWORD_LENGTH' }],
      [{ bankName: '' }, { bankName: 'BANK_REQUIRED' }],
      [{ bankName: undefined }, { bankName: 'BANK_REQUIRED' }],
      [{ accountNo: '' }, { accountNo: 'BANK_REQUIRED' }],
      [{ accountNo: '110-123-45a' }, { accountNo: 'ACCOUNT_NO_DIGITS' }],
      [{ accountNo: '110--123456789' }, { accountNo: 'ACCOUNT_NO_DIGITS' }],
      // 신한은행 accounts have 11-12 digits, 카카오뱅크 13 (hyphens not counted)
      [{ accountNo: '110-123-456' }, { accountNo: 'ACCOUNT_NO_LENGTH' }],
      [{ bankName: '카카오뱅크', accountNo: '12' }, { accountNo: 'ACCOUNT_NO_LENGTH' }],
      [{ phoneE164: '+8221234567' }, { phoneE164: 'PHONE_NOT_MOBILE' }],
      [{ phoneE164: '010-1234-5678' }, { phoneE164: 'PHONE_INVALID' }],
      [{ countryCode: '81' }, { phoneE164: 'PHONE_INVALID' }],
    ];
    for (const [patch, fields] of cases) {
      const res = await t.call('PUT', '/my', { token: m.accessToken, body: { ...base(m), ...patch } });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.returnData, JSON.stringify(patch)).toEqual({ fields });
    }
    const me = await t.call<Record<string, unknown>>('GET', '/my', { token: m.accessToken });
    expect(me.body.returnData).toMatchObject({ nickname: m.nickname, bankName: null, accountNo: null });
  });

  it('a new phone needs a member verification within 10 minutes; taken nickname and phone are refused', async () => {
    const m = await signupAndLogin(t);
    const other = await signupAndLogin(t);
    const unverified = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: { ...base(m), phoneE164: randomPhone() },
    });
    expect(unverified.status).toBe(400);
    expect(unverified.body.returnMessage).toBe('PHONE_NOT_VERIFIED');
    // A signup-purpose verification (no token) does not count for a member.
    const signupOnly = await verifiedPhone();
    const wrongPurpose = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: { ...base(m), phoneE164: signupOnly },
    });
    expect(wrongPurpose.body.returnMessage).toBe('PHONE_NOT_VERIFIED');

    const nickTaken = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: { ...base(m), nickName: other.nickname },
    });
    expect(nickTaken.status).toBe(409);
    expect(nickTaken.body.returnMessage).toBe('NICKNAME_TAKEN');

    const code = await requestAndReadCode(t, other.phone, { token: m.accessToken });
    expect(
      (await t.call('POST', '/sms/verify', { token: m.accessToken, body: { phone: other.phone, code } }))
        .status,
    ).toBe(200);
    const phoneTaken = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: { ...base(m), phoneE164: other.phone },
    });
    expect(phoneTaken.status).toBe(409);
    expect(phoneTaken.body.returnMessage).toBe('PHONE_TAKEN');

    // Keeping one's own phone needs no new verification, and one's own nickname in another case is fine.
    const same = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: { ...base(m), nickName: m.nickname.toUpperCase() },
    });
    expect(same.status).toBe(200);
  });

  it('needs a signed-in member', async () => {
    const none = await t.call('PUT', '/my', { body: {} });
    expect(none.status).toBe(401);
    expect((await t.call('GET', '/my')).body.returnMessage).toBe('UNAUTHORIZED');
    expect((await t.call('GET', '/my', { token: 'garbage' })).status).toBe(401);
  });
});
