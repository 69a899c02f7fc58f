import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, signupAndLogin } from './test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
});
afterAll(() => t.close());

const login = (loginId: string, password: string) =>
  t.call<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/login', {
    body: { loginId, password },
  });
const refresh = (refreshToken: string) => t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });

describe('a password changed through PUT /my', () => {
  it('signs out every other session and keeps the one that changed it', async () => {
    const m = await signupAndLogin(t); // session A
    const b = (await login(m.loginId, m.password)).body.returnData; // session B, another device
    const me = await t.call<{ nickname: string; countryCode: string; phoneE164: string }>('GET', '/my', {
      token: m.accessToken,
    });
    const changed = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: {
        nickName: me.body.returnData.nickname,
        password: 'changed77!',
        currentPassword: m.password,
        countryCode: me.body.returnData.countryCode,
        phoneE164: me.body.returnData.phoneE164,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await refresh(b.refreshToken)).body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    expect((await refresh(m.refreshToken)).status).toBe(200);
    expect((await login(m.loginId, m.password)).body.returnMessage).toBe('INVALID_CREDENTIALS');
    expect((await login(m.loginId, 'changed77!')).status).toBe(200);
  });

  it('leaves every session alone when the password is not changed', async () => {
    const m = await signupAndLogin(t);
    const b = (await login(m.loginId, m.password)).body.returnData;
    const me = await t.call<{ nickname: string; phoneE164: string }>('GET', '/my', { token: m.accessToken });
    const kept = await t.call('PUT', '/my', {
      token: m.accessToken,
      body: {
        nickName: me.body.returnData.nickname,
        password: '',
        currentPassword: m.password,
        countryCode: '82',
        phoneE164: me.body.returnData.phoneE164,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
      },
    });
    expect(kept.status).toBe(200);
    expect((await refresh(b.refreshToken)).status).toBe(200);
  });
});
