import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, randomId, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
});
afterAll(() => t.close());

type Tokens = { accessToken: string; refreshToken: string };

describe('signup, login, profile and tokens over HTTP alone', () => {
  it('runs the whole SPEC §7 signup journey', async () => {
    const loginId = randomId('jo');
    const nickname = randomId('nk');
    const phone = randomPhone();

    const idCheck = await t.call('POST', '/api/v1/members/check-id', { body: { loginId } });
    expect(idCheck.body).toEqual({ returnCode: 0, returnMessage: 'OK', returnData: { available: true } });
    const nickCheck = await t.call('POST', '/api/v1/members/check-nickname', { body: { nickname } });
    expect(nickCheck.body.returnData).toEqual({ available: true });

    const sent = await t.call('POST', '/sms/request', { body: { phone } });
    expect(sent.status).toBe(200);
    expect(sent.body.returnData).toEqual({ expiresInSec: 120 });
    const box = await t.call<{ code: string; sentAt: string }>(
      'GET',
      `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`,
    );
    expect(box.status).toBe(200);
    expect(box.body.returnData.code).toMatch(/^\d{6}$/);
    expect(Number.isNaN(Date.parse(box.body.returnData.sentAt))).toBe(false);

    const verified = await t.call('POST', '/sms/verify', { body: { phone, code: box.body.returnData.code } });
    expect(verified.status).toBe(200);
    expect(verified.body.returnCode).toBe(0);

    const signed = await t.call('POST', '/api/v1/members/signup', {
      body: {
        loginId,
        password: 'pass1234',
        name: 'Hong Gildong',
        nickname,
        countryCode: '82',
        phoneE164: phone,
      },
    });
    expect(signed.status).toBe(201);
    expect(signed.body.returnCode).toBe(0);

    // Now taken, whatever the case.
    const again = await t.call('POST', '/api/v1/members/check-id', {
      body: { loginId: loginId.toUpperCase() },
    });
    expect(again.body.returnData).toEqual({ available: false });
    const nickAgain = await t.call('POST', '/api/v1/members/check-nickname', { body: { nickname } });
    expect(nickAgain.body.returnData).toEqual({ available: false });

    const logged = await t.call<Tokens>('POST', '/api/v1/auth/login', {
      body: { loginId, password: 'pass1234' },
    });
    expect(logged.status).toBe(200);
    const { accessToken, refreshToken } = logged.body.returnData;
    expect(accessToken.split('.')).toHaveLength(3);
    expect(refreshToken.length).toBeGreaterThan(30);

    const me = await t.call<Record<string, unknown>>('GET', '/my', { token: accessToken });
    expect(me.status).toBe(200);
    expect(me.body.returnData).toMatchObject({
      loginId,
      nickname,
      name: 'Hong Gildong',
      countryCode: '82',
      phoneE164: phone,
      bankName: null,
      accountNo: null,
      role: 'MEMBER',
      status: 'ACTIVE',
    });

    // Refresh rotates: the new pair works, the old refresh token is refused ...
    const r1 = await t.call<Tokens>('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
    expect(r1.status).toBe(200);
    expect(r1.body.returnData.refreshToken).not.toBe(refreshToken);
    expect((await t.call('GET', '/my', { token: r1.body.returnData.accessToken })).status).toBe(200);
    const reuse = await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    // ... and that reuse revoked the whole family: the newest token is dead too.
    const afterReuse = await t.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: r1.body.returnData.refreshToken },
    });
    expect(afterReuse.status).toBe(401);
    expect(afterReuse.body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    // A fresh login starts a new family that works.
    const relog = await t.call<Tokens>('POST', '/api/v1/auth/login', {
      body: { loginId, password: 'pass1234' },
    });
    const r2 = await t.call<Tokens>('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: relog.body.returnData.refreshToken },
    });
    expect(r2.status).toBe(200);

    // Modify: new nickname, password, bank, and a new phone verified as the member.
    const newPhone = randomPhone();
    const token = r2.body.returnData.accessToken;
    const code = await requestAndReadCode(t, newPhone, { token });
    expect((await t.call('POST', '/sms/verify', { body: { phone: newPhone, code }, token })).status).toBe(
      200,
    );
    const newNick = randomId('mo');
    const modified = await t.call<Record<string, unknown>>('PUT', '/my', {
      token,
      body: {
        nickName: newNick,
        password: 'newpass99',
        currentPassword: 'pass1234',
        countryCode: '82',
        phoneE164: newPhone,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
      },
    });
    expect(modified.status, JSON.stringify(modified.body)).toBe(200);
    const me2 = await t.call<Record<string, unknown>>('GET', '/my', { token });
    expect(me2.body.returnData).toMatchObject({
      nickname: newNick,
      phoneE164: newPhone,
      bankName: 'KB국민은행',
      accountNo: '123456789012',
    });
    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId, password: 'pass1234' } })).body
        .returnMessage,
    ).toBe('INVALID_CREDENTIALS');
    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId, password: 'newpass99' } })).status,
    ).toBe(200);

    // Empty password = unchanged.
    const keep = await t.call('PUT', '/my', {
      token,
      body: {
        nickName: newNick,
        password: '',
        currentPassword: 'newpass99',
        countryCode: '82',
        phoneE164: newPhone,
        bankName: '기타은행',
        accountNo: '4242-4242',
      },
    });
    expect(keep.status).toBe(200);
    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId, password: 'newpass99' } })).status,
    ).toBe(200);
  });

  it('logs in whatever the case of the login id, and refuses wrong passwords and unknown ids alike', async () => {
    const m = await signupAndLogin(t);
    expect(
      (
        await t.call('POST', '/api/v1/auth/login', {
          body: { loginId: m.loginId.toUpperCase(), password: m.password },
        })
      ).status,
    ).toBe(200);
    const wrong = await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: 'nope12345' },
    });
    const unknown = await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: 'nobody123', password: 'nope12345' },
    });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.returnMessage).toBe('INVALID_CREDENTIALS');
  });

  it('two refreshes racing with one token: at most one wins, and the family is then revoked', async () => {
    const m = await signupAndLogin(t);
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        t.call<Tokens>('POST', '/api/v1/auth/refresh', { body: { refreshToken: m.refreshToken } }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    // The losers presented a rotated token: reuse, so even the winner's new token is dead.
    for (const w of winners) {
      const next = await t.call('POST', '/api/v1/auth/refresh', {
        body: { refreshToken: w.body.returnData.refreshToken },
      });
      expect(next.status).toBe(401);
    }
  });

  it('refuses unknown and garbage refresh tokens', async () => {
    for (const refreshToken of ['x', 'a'.repeat(43), 'not a token at all']) {
      const r = await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
      expect(r.status).toBe(401);
      expect(r.body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    }
  });
});

describe('password reset end to end', () => {
  it('find-phone masked, code to the stored phone, single-use ticket, new password', async () => {
    const m = await signupAndLogin(t);
    const found = await t.call<{ phone: string }>('POST', '/api/v1/auth/find-phone', {
      body: { id: m.loginId },
    });
    expect(found.status).toBe(200);
    const masked = found.body.returnData.phone;
    expect(masked).toBe(`+82 *******${m.phone.slice(-4)}`);
    expect(masked).not.toContain(m.phone.slice(3, 9));

    const unknown = await t.call('POST', '/api/v1/auth/find-phone', { body: { id: 'nobody999' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.returnMessage).toBe('NOT_FOUND_MEMBER_ID');

    // The client only knows the masked phone: it sends it back with purpose 'reset' and the id.
    const sent = await t.call('POST', '/sms/request', {
      body: { phone: masked, purpose: 'reset', loginId: m.loginId },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.returnData).toEqual({ expiresInSec: 30 });
    const code = (
      await t.call<{ code: string }>('GET', `/dev/sms/outbox?phone=${encodeURIComponent(m.phone)}`)
    ).body.returnData.code;

    // A reset code is not a signup code and vice versa.
    expect((await t.call('POST', '/sms/verify', { body: { phone: m.phone, code } })).status).toBe(400);

    const wrong = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      body: { phone: masked, code: code === '000000' ? '111111' : '000000', id: m.loginId },
    });
    expect(wrong.body.returnMessage).toBe('CODE_MISMATCH');

    const ok = await t.call<{ resetTicket: string; expiresInSec: number }>(
      'POST',
      '/api/v1/auth/verify-reset-password',
      {
        body: { phone: masked, code, id: m.loginId },
      },
    );
    expect(ok.status).toBe(200);
    const body = ok.body as unknown as {
      resetTicket: string;
      expiresInSec: number;
      returnData: { resetTicket: string };
    };
    expect(body.expiresInSec).toBe(600);
    expect(body.resetTicket).toBe(body.returnData.resetTicket);
    expect(body.resetTicket.length).toBeGreaterThan(30);
    // The code is used up.
    const reuseCode = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      body: { phone: masked, code, id: m.loginId },
    });
    expect(reuseCode.body.returnMessage).toBe('CODE_EXPIRED');

    const weak = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: body.resetTicket, newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.returnData).toEqual({ fields: { newPassword: 'PASSWORD_LENGTH' } });

    const reset = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: body.resetTicket, newPassword: 'fresh-pass1' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.returnCode).toBe(0);
    const twice = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: body.resetTicket, newPassword: 'other-pass2' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.returnMessage).toBe('RESET_TICKET_INVALID');

    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId: m.loginId, password: m.password } }))
        .status,
    ).toBe(400);
    expect(
      (await t.call('POST', '/api/v1/auth/login', { body: { loginId: m.loginId, password: 'fresh-pass1' } }))
        .status,
    ).toBe(200);
    // Signed out everywhere: the refresh token from before the reset is dead.
    expect(
      (await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken: m.refreshToken } })).status,
    ).toBe(401);
  });

  it('answers a reset code request the same whatever phone is named, and refuses unknown ids', async () => {
    // DECISIONS §13: the code always goes to the stored phone, so a wrong phone gets the right phone's answer
    // and the masked phone of find-phone cannot be completed by trying numbers.
    const [a, b] = [await signupAndLogin(t), await signupAndLogin(t)];
    const wrongPhone = await t.call('POST', '/sms/request', {
      body: { phone: randomPhone(), purpose: 'reset', loginId: a.loginId },
    });
    const rightPhone = await t.call('POST', '/sms/request', {
      body: { phone: b.phone, purpose: 'reset', loginId: b.loginId },
    });
    expect(wrongPhone.status).toBe(200);
    expect(wrongPhone.body).toEqual(rightPhone.body);
    const nobody = await t.call('POST', '/sms/request', {
      body: { purpose: 'reset', loginId: 'nobody4242' },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body.returnMessage).toBe('NOT_FOUND_MEMBER_ID');
    const noId = await t.call('POST', '/sms/request', { body: { purpose: 'reset' } });
    expect(noId.body.returnData).toEqual({ fields: { loginId: 'REQUIRED' } });
    // The phone may be omitted.
    const c = await signupAndLogin(t);
    expect(
      (await t.call('POST', '/sms/request', { body: { purpose: 'reset', loginId: c.loginId } })).status,
    ).toBe(200);
  });

  it('refuses an expired ticket and an unknown one', async () => {
    const m = await signupAndLogin(t);
    const code = await requestAndReadCode(t, m.phone, { body: { purpose: 'reset', loginId: m.loginId } });
    const v = await t.call<{ resetTicket: string }>('POST', '/api/v1/auth/verify-reset-password', {
      body: { code, id: m.loginId },
    });
    expect(v.status).toBe(200);
    await t.app.deps.db
      .updateTable('reset_tickets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const late = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: v.body.returnData.resetTicket, newPassword: 'fresh-pass1' },
    });
    expect(late.body.returnMessage).toBe('RESET_TICKET_INVALID');
    const bogus = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: 'bogus', newPassword: 'fresh-pass1' },
    });
    expect(bogus.body.returnMessage).toBe('RESET_TICKET_INVALID');
  });
});
