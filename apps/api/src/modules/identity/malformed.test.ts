import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

let t: TestApp;
let token: string;
// The member's own phone (PUT /my then needs no new verification) and a phone verified for signup, so
// that bodies which pass validation really reach the database.
const own = { phone: '', password: '' };
const signupPhone = randomPhone();
beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
  const m = await signupAndLogin(t);
  token = m.accessToken;
  own.phone = m.phone;
  own.password = m.password;
  const code = await requestAndReadCode(t, signupPhone);
  expect((await t.call('POST', '/sms/verify', { body: { phone: signupPhone, code } })).status).toBe(200);
});
afterAll(() => t.close());

interface Route {
  method: 'POST' | 'PUT';
  url: string;
  auth?: boolean;
  valid: () => Record<string, unknown>;
}

const phone = randomPhone();
const ROUTES: Route[] = [
  { method: 'POST', url: '/api/v1/auth/login', valid: () => ({ loginId: 'someone1', password: 'abc123!' }) },
  { method: 'POST', url: '/api/v1/auth/refresh', valid: () => ({ refreshToken: 'x'.repeat(43) }) },
  { method: 'POST', url: '/api/v1/auth/find-phone', valid: () => ({ id: 'someone1' }) },
  {
    method: 'POST',
    url: '/api/v1/auth/verify-reset-password',
    valid: () => ({ phone, code: '123456', id: 'someone1' }),
  },
  {
    method: 'POST',
    url: '/api/v1/auth/reset-password',
    valid: () => ({ resetTicket: 'x'.repeat(43), newPassword: 'abc123!' }),
  },
  {
    method: 'POST',
    url: '/api/v1/members/signup',
    valid: () => ({
      loginId: 'someone1',
      password: 'abc123!',
      name: 'Kim',
      nickname: 'nick1',
      countryCode: '82',
      phoneE164: signupPhone,
    }),
  },
  { method: 'POST', url: '/api/v1/members/check-id', valid: () => ({ loginId: 'someone1' }) },
  { method: 'POST', url: '/api/v1/members/check-nickname', valid: () => ({ nickname: 'nick1' }) },
  {
    method: 'PUT',
    url: '/my',
    auth: true,
    valid: () => ({
      nickName: 'nick2',
      password: '',
      currentPassword: own.password,
      countryCode: '82',
      phoneE164: own.phone,
      bankName: 'KB',
      accountNo: '12345678',
    }),
  },
  { method: 'POST', url: '/sms/request', valid: () => ({ phone }) },
  { method: 'POST', url: '/sms/request', valid: () => ({ phone, purpose: 'reset', loginId: 'someone1' }) },
  { method: 'POST', url: '/sms/request', auth: true, valid: () => ({ phone }) },
  { method: 'POST', url: '/sms/verify', valid: () => ({ phone, code: '123456' }) },
  { method: 'POST', url: '/sms/verify', auth: true, valid: () => ({ phone, code: '123456' }) },
];

const RAW_BODIES = [
  '{bad json',
  '{"a":',
  'null',
  '[]',
  '[{"loginId":"a"}]',
  '123',
  '"text"',
  'true',
  '{}',
  '',
  '\u0000',
];
const WRONG_VALUES: unknown[] = [
  123,
  -1.5,
  true,
  null,
  [],
  ['a'],
  {},
  { $gt: '' },
  'x'.repeat(30_000),
  '',
  ' ',
  '\u0000',
  'abcd\u0000efg',
];

async function send(
  r: { method: string; url: string; auth?: boolean },
  payload: string,
  contentType = 'application/json',
) {
  const res = await t.app.inject({
    method: r.method,
    url: r.url,
    payload,
    headers: { 'content-type': contentType, ...(r.auth ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: res.json() as { returnCode: number; returnMessage: string } };
}

function expectCleanRefusalOrSuccess(
  res: { status: number; body: { returnCode: number; returnMessage: string } },
  what: string,
) {
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body.returnCode, what).toBe(res.status);
    expect(res.body.returnMessage, what).toMatch(/^[A-Z][A-Z0-9_]*$/);
  } else {
    expect(res.body.returnCode, what).toBe(0);
  }
}

describe('no 5xx for any malformed body on any identity route', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.url}${r.auth ? ' (member)' : ''}`, r] as const))(
    '%s',
    async (_n, route) => {
      const r = { ...route, valid: route.valid() };
      for (const raw of RAW_BODIES) {
        const res = await send(r, raw);
        expectCleanRefusalOrSuccess(res, `raw ${JSON.stringify(raw)}`);
        expect(res.status, `raw ${JSON.stringify(raw)}`).toBe(400);
      }
      // 100 KB of string: over the body limit, a clean 413.
      const huge = await send(
        r,
        JSON.stringify({ ...r.valid, [Object.keys(r.valid)[0] ?? 'x']: 'x'.repeat(100_000) }),
      );
      expect(huge.status).toBe(413);
      expect(huge.body.returnMessage).toBe('PAYLOAD_TOO_LARGE');
      // Wrong content type.
      expectCleanRefusalOrSuccess(
        await send(r, 'loginId=a', 'application/x-www-form-urlencoded'),
        'form body',
      );
      // Every field: missing, and every wrong type.
      for (const key of Object.keys(r.valid)) {
        const { [key]: _dropped, ...without } = r.valid;
        expectCleanRefusalOrSuccess(await send(r, JSON.stringify(without)), `${key} missing`);
        for (const v of WRONG_VALUES) {
          const res = await send(r, JSON.stringify({ ...r.valid, [key]: v }));
          expectCleanRefusalOrSuccess(res, `${key}=${JSON.stringify(v).slice(0, 40)}`);
        }
      }
      // Unknown extra fields are ignored or refused, never a crash.
      expectCleanRefusalOrSuccess(
        await send(r, JSON.stringify({ ...r.valid, extra: { deep: [1, 2, 3] } })),
        'extra field',
      );
    },
  );

  it('GET /dev/sms/outbox with odd queries', async () => {
    for (const q of [
      '',
      '?phone=',
      '?phone=abc',
      '?phone[]=1',
      `?phone=${'9'.repeat(5000)}`,
      '?phone=%00',
      '?phone=+821012345678&phone=+821012345679',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/dev/sms/outbox${q}` });
      expect(res.statusCode, q).toBeLessThan(500);
    }
  });

  it('GET /my with odd tokens', async () => {
    for (const h of [
      'Bearer',
      'Bearer ',
      'Bearer a.b.c',
      `Bearer ${'x'.repeat(8000)}`,
      'Basic abc',
      'bearer x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/my', headers: { authorization: h } });
      expect(res.statusCode, h.slice(0, 20)).toBe(401);
    }
  });
});
