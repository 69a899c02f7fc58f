import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
});
afterAll(() => t.close());

const verify = (phone: string, code: string, token?: string) =>
  t.call('POST', '/sms/verify', { body: { phone, code }, token });
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('SMS codes (DECISIONS §6)', () => {
  it('refuses a wrong code with CODE_MISMATCH and the tries left', async () => {
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    const wrong = await verify(phone, otherCode(code));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      returnCode: 400,
      returnMessage: 'CODE_MISMATCH',
      returnData: { triesLeft: 4 },
    });
    expect((await verify(phone, code)).status).toBe(200);
  });

  it('allows at most 5 tries per code, even the right code after that', async () => {
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    for (let i = 4; i >= 0; i--) {
      const r = await verify(phone, otherCode(code));
      expect(r.body.returnMessage).toBe('CODE_MISMATCH');
      expect(r.body.returnData).toEqual({ triesLeft: i });
    }
    const right = await verify(phone, code);
    expect(right.status).toBe(400);
    expect(right.body.returnMessage).toBe('CODE_TRIES_EXCEEDED');
    // A new code starts over.
    const fresh = await requestAndReadCode(t, phone);
    expect((await verify(phone, fresh)).status).toBe(200);
  });

  it.runIf(onPostgres)('counts parallel guesses atomically (never more than 5 checked)', async () => {
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    const results = await Promise.all(Array.from({ length: 30 }, () => verify(phone, otherCode(code))));
    expect(results.filter((r) => r.body.returnMessage === 'CODE_MISMATCH')).toHaveLength(5);
    expect(results.filter((r) => r.body.returnMessage === 'CODE_TRIES_EXCEEDED')).toHaveLength(25);
  });

  it('refuses an expired code with CODE_EXPIRED', async () => {
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    await t.app.deps.db
      .updateTable('sms_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('phone_e164', '=', phone)
      .execute();
    const r = await verify(phone, code);
    expect(r.status).toBe(400);
    expect(r.body.returnMessage).toBe('CODE_EXPIRED');
  });

  it('answers CODE_EXPIRED when no code was sent, and for a code already used', async () => {
    expect((await verify(randomPhone(), '123456')).body.returnMessage).toBe('CODE_EXPIRED');
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    expect((await verify(phone, code)).status).toBe(200);
    expect((await verify(phone, code)).body.returnMessage).toBe('CODE_EXPIRED');
  });

  it('only the newest code counts', async () => {
    const phone = randomPhone();
    const first = await requestAndReadCode(t, phone);
    let second = await requestAndReadCode(t, phone);
    while (second === first) second = await requestAndReadCode(t, phone);
    expect((await verify(phone, first)).body.returnMessage).toBe('CODE_MISMATCH');
    expect((await verify(phone, second)).status).toBe(200);
  });

  it('keeps signup and member codes apart; a member’s code for another phone is a phone-change code', async () => {
    const m = await signupAndLogin(t);
    const rowsOf = (phone: string) =>
      t.app.deps.db
        .selectFrom('sms_codes')
        .select(['purpose', 'member_id', 'code_hash'])
        .where('phone_e164', '=', phone)
        .where('member_id', 'is not', null)
        .execute();
    const phone = randomPhone();
    const changeCode = await requestAndReadCode(t, phone, { token: m.accessToken });
    expect((await verify(phone, changeCode)).body.returnMessage).toBe('CODE_EXPIRED');
    expect((await verify(phone, changeCode, m.accessToken)).status).toBe(200);
    expect(await rowsOf(phone)).toEqual([
      { purpose: 'phone_change', member_id: expect.any(Number), code_hash: expect.any(String) },
    ]);
    // Stored hashed: the plain code is nowhere in the row.
    expect((await rowsOf(phone))[0]?.code_hash).not.toContain(changeCode);
    // The member's own phone gets a 'member' code (purchase check, step-up).
    const ownCode = await requestAndReadCode(t, m.phone, { token: m.accessToken });
    expect((await verify(m.phone, ownCode, m.accessToken)).status).toBe(200);
    expect(await rowsOf(m.phone)).toEqual([
      { purpose: 'member', member_id: expect.any(Number), code_hash: expect.any(String) },
    ]);
  });

  it('an invalid bearer token on /sms is 401, not a silent signup code', async () => {
    const r = await t.call('POST', '/sms/request', { body: { phone: randomPhone() }, token: 'garbage' });
    expect(r.status).toBe(401);
  });

  it('the dev outbox answers 404 for a phone that got nothing, and validates the phone', async () => {
    const none = await t.call('GET', `/dev/sms/outbox?phone=${encodeURIComponent(randomPhone())}`);
    expect(none.status).toBe(404);
    expect(none.body.returnMessage).toBe('NOT_FOUND');
    expect((await t.call('GET', '/dev/sms/outbox?phone=abc')).body.returnMessage).toBe('VALIDATION_FAILED');
    expect((await t.call('GET', '/dev/sms/outbox')).status).toBe(400);
  });
});

describe('code lifetimes are settings', () => {
  it('SMS_CODE_TTL_SEC=1 expires a code after a second', async () => {
    const short = await createTestApp({ ...RELAXED_LIMITS, SMS_CODE_TTL_SEC: '1' });
    try {
      const phone = randomPhone();
      const sent = await short.call('POST', '/sms/request', { body: { phone } });
      expect(sent.body.returnData).toEqual({ expiresInSec: 1 });
      const code = (
        await short.call<{ code: string }>('GET', `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`)
      ).body.returnData.code;
      await new Promise((r) => setTimeout(r, 1300));
      const late = await short.call('POST', '/sms/verify', { body: { phone, code } });
      expect(late.body.returnMessage).toBe('CODE_EXPIRED');
    } finally {
      await short.close();
    }
  });

  it('a reset code lives 30 s by default and then is refused', async () => {
    const m = await signupAndLogin(t);
    const code = await requestAndReadCode(t, m.phone, { body: { purpose: 'reset', loginId: m.loginId } });
    const ttl = await t.app.deps.db
      .selectFrom('sms_codes')
      .select(['expires_at', 'created_at'])
      .where('phone_e164', '=', m.phone)
      .where('purpose', '=', 'reset')
      .executeTakeFirstOrThrow();
    expect(Math.round((ttl.expires_at.getTime() - ttl.created_at.getTime()) / 1000)).toBe(30);
    await t.app.deps.db
      .updateTable('sms_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('purpose', '=', 'reset')
      .execute();
    const late = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      body: { code, id: m.loginId },
    });
    expect(late.body.returnMessage).toBe('CODE_EXPIRED');
  });
});

describe('suspended members', () => {
  it('are refused at login, at refresh and on guarded routes', async () => {
    const m = await signupAndLogin(t);
    await t.app.deps.db
      .updateTable('members')
      .set({ status: 'SUSPENDED', suspended_reason: 'test' })
      .where('login_id', '=', m.loginId)
      .execute();
    const login = await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect(login.status).toBe(403);
    expect(login.body.returnMessage).toBe('MEMBER_SUSPENDED');
    // A wrong password still says only INVALID_CREDENTIALS.
    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId: m.loginId, password: 'wrong123' } }))
        .body.returnMessage,
    ).toBe('INVALID_CREDENTIALS');
    const my = await t.call('GET', '/my', { token: m.accessToken });
    expect(my.status).toBe(403);
    expect(my.body.returnMessage).toBe('MEMBER_SUSPENDED');
    const put = await t.call('PUT', '/my', { token: m.accessToken, body: {} });
    expect(put.body.returnMessage).toBe('MEMBER_SUSPENDED');
    const refresh = await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken: m.refreshToken } });
    expect(refresh.status).toBe(403);
    expect(refresh.body.returnMessage).toBe('MEMBER_SUSPENDED');
    const sms = await t.call('POST', '/sms/request', { token: m.accessToken, body: { phone: m.phone } });
    expect(sms.body.returnMessage).toBe('MEMBER_SUSPENDED');
  });
});
