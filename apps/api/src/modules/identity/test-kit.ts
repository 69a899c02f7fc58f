import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';

/** Limits raised so that tests not about limits never meet them. */
export const RELAXED_LIMITS: Record<string, string> = {
  SMS_RESEND_COOLDOWN_SEC: '0',
  SMS_PER_PHONE_PER_HOUR: '1000',
  SMS_PER_IP_PER_HOUR: '1000',
  SMS_PER_MEMBER_PER_HOUR: '1000',
  LOGIN_MAX_ATTEMPTS: '1000',
  LOGIN_MAX_FAILURES_PER_IP: '1000',
  LOGIN_SLOWDOWN_MAX_MS: '0',
  LOGIN_GLOBAL_FAILURES_PER_MIN: '10000',
  LOOKUP_PER_IP_PER_HOUR: '1000',
};

/**
 * A random Korean mobile number in E.164. The digits after 010 start at 6: libphonenumber's KR plan leaves some
 * 0105… numbers unassigned (e.g. 01059 6…), which the signup refuses as PHONE_NOT_MOBILE.
 */
export const randomPhone = () => `+8210${randomInt(60_000_000, 99_999_999)}`;
/** A random valid login id / nickname (letters and digits). */
export const randomId = (prefix = 'u') => `${prefix}${randomBytes(4).toString('hex')}`;

/** Requests a code for `phone` over HTTP and reads it back from the dev outbox. */
export async function requestAndReadCode(
  t: TestApp,
  phone: string,
  o: { token?: string; body?: Record<string, unknown> } = {},
): Promise<string> {
  const sent = await t.call('POST', '/sms/request', { body: o.body ?? { phone }, token: o.token });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const box = await t.call<{ code: string; sentAt: string }>(
    'GET',
    `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`,
  );
  expect(box.status).toBe(200);
  return box.body.returnData.code;
}

export interface SignedUp {
  loginId: string;
  password: string;
  nickname: string;
  phone: string;
  accessToken: string;
  refreshToken: string;
}

/** Signs a member up and logs in, over HTTP only (SMS request, outbox, verify, signup, login). */
export async function signupAndLogin(t: TestApp, o: { phone?: string } = {}): Promise<SignedUp> {
  const phone = o.phone ?? randomPhone();
  const loginId = randomId('u');
  const nickname = randomId('n');
  const password = 'abc123!';
  const code = await requestAndReadCode(t, phone);
  expect((await t.call('POST', '/sms/verify', { body: { phone, code } })).status).toBe(200);
  const res = await t.call('POST', '/api/v1/members/signup', {
    body: { loginId, password, name: 'Kim Test', nickname, countryCode: '82', phoneE164: phone },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const logged = await t.call<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/login', {
    body: { loginId, password },
  });
  expect(logged.status).toBe(200);
  return { loginId, password, nickname, phone, ...logged.body.returnData };
}
