import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, randomId, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

// The security review's findings (docs/security.md) on sessions, enumeration, budgets, operators and names, each written as the attack:
// every test below reproduces the attack and proves it now does no harm (DECISIONS §13).

const JWT_SECRET = 'attack-tests-secret-with-enough-entropy-0123456789';
const secret = new TextEncoder().encode(JWT_SECRET);

describe('sessions: a revoked session takes its access tokens with it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, JWT_SECRET });
  });
  afterAll(() => t.close());

  const my = (token: string) => t.call('GET', '/my', { token });

  it('logout revokes the session: its access token and refresh token stop working at once', async () => {
    const m = await signupAndLogin(t);
    const other = await t.call<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect((await my(m.accessToken)).status).toBe(200);
    const out = await t.call('POST', '/api/v1/auth/logout', { body: { refreshToken: m.refreshToken } });
    expect(out.status).toBe(200);
    expect((await my(m.accessToken)).body.returnMessage).toBe('UNAUTHORIZED');
    expect(
      (await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken: m.refreshToken } })).status,
    ).toBe(401);
    // Only that session: the member's other device stays signed in.
    expect((await my(other.body.returnData.accessToken)).status).toBe(200);
    // Logging out with an unknown or already revoked token answers the same: nothing to learn from it.
    const again = await t.call('POST', '/api/v1/auth/logout', { body: { refreshToken: m.refreshToken } });
    const bogus = await t.call('POST', '/api/v1/auth/logout', { body: { refreshToken: 'no-such-token' } });
    expect([again.status, bogus.status]).toEqual([200, 200]);
    expect(bogus.body).toEqual(again.body);
  });

  it('logout with only the access token (refresh token lost) still ends that session', async () => {
    const m = await signupAndLogin(t);
    await t.call('POST', '/api/v1/auth/logout', { token: m.accessToken, body: { refreshToken: 'lost' } });
    expect((await my(m.accessToken)).status).toBe(401);
  });

  it('a password reset kills the access tokens of every session', async () => {
    const m = await signupAndLogin(t);
    const code = await requestAndReadCode(t, m.phone, { body: { purpose: 'reset', loginId: m.loginId } });
    const v = await t.call<{ resetTicket: string }>('POST', '/api/v1/auth/verify-reset-password', {
      body: { code, id: m.loginId },
    });
    const reset = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { resetTicket: v.body.returnData.resetTicket, newPassword: 'brand-new-pass9' },
    });
    expect(reset.status).toBe(200);
    expect((await my(m.accessToken)).status).toBe(401);
  });

  it('reuse of a rotated refresh token (theft) kills the access token of the thief’s fresh pair too', async () => {
    const m = await signupAndLogin(t);
    const stolen = m.refreshToken;
    const thief = await t.call<{ accessToken: string }>('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: stolen },
    });
    expect((await my(thief.body.returnData.accessToken)).status).toBe(200);
    // The victim's client retries its (now rotated) token: reuse detected, the family is revoked.
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken: stolen } })).status).toBe(
      401,
    );
    expect((await my(thief.body.returnData.accessToken)).status).toBe(401);
  });

  async function forge(claims: Record<string, unknown>, o: { exp?: boolean; sub?: string } = {}) {
    let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
    if (o.sub !== undefined) jwt = jwt.setSubject(o.sub);
    if (o.exp !== false) jwt = jwt.setExpirationTime('10m');
    return jwt.sign(secret);
  }

  it('refuses tokens without exp, with a sloppy sub or without a session, even when correctly signed', async () => {
    const m = await createMember(t);
    const sid = (
      await t.app.deps.db
        .selectFrom('refresh_tokens')
        .select('family_id')
        .where('member_id', '=', m.id)
        .executeTakeFirstOrThrow()
    ).family_id;
    // The control: the same forge with every claim right is accepted, so the refusals below are the rules.
    expect((await my(await forge({ role: 'MEMBER', sid }, { sub: String(m.id) }))).status).toBe(200);
    const bad = [
      await forge({ role: 'MEMBER', sid }, { sub: String(m.id), exp: false }),
      await forge({ role: 'MEMBER', sid }, { sub: `${m.id}abc` }),
      await forge({ role: 'MEMBER', sid }, { sub: `0${m.id}` }),
      await forge({ role: 'MEMBER', sid }, { sub: `${m.id}.0` }),
      await forge({ role: 'MEMBER' }, { sub: String(m.id) }),
      await forge({ role: 'MEMBER', sid: randomUUID() }, { sub: String(m.id) }),
      await forge({ role: 'MEMBER', sid: 'not-a-uuid' }, { sub: String(m.id) }),
    ];
    for (const token of bad) {
      const r = await my(token);
      expect(r.status).toBe(401);
      expect(r.body.returnMessage).toBe('UNAUTHORIZED');
    }
  });

  it('answers behind a token are never cacheable', async () => {
    const m = await signupAndLogin(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/my',
      headers: { authorization: `Bearer ${m.accessToken}` },
    });
    expect(res.headers['cache-control']).toContain('no-store');
  });
});

describe('enumeration: a guessed phone or id learns nothing, and every lookup pays first', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, LOOKUP_PER_IP_PER_HOUR: '4', SMS_MAX_TRIES: '5' });
  });
  afterAll(() => t.close());

  it('verify-reset-password answers a wrong phone exactly like a wrong code, and the code dies after 5 tries', async () => {
    const m = await signupAndLogin(t);
    const code = await requestAndReadCode(t, m.phone, { body: { purpose: 'reset', loginId: m.loginId } });
    const wrongCode = code === '000000' ? '111111' : '000000';
    const ip = '10.9.0.1';
    const byPhone = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      ip,
      body: { id: m.loginId, code, phone: randomPhone() },
    });
    const byCode = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      ip: '10.9.0.2',
      body: { id: m.loginId, code: wrongCode, phone: m.phone },
    });
    expect(byPhone.status).toBe(400);
    expect(byPhone.body.returnMessage).toBe('CODE_MISMATCH');
    expect(byCode.body.returnMessage).toBe('CODE_MISMATCH');
    // Each wrong phone used a try: guessing the 4 hidden digits of the masked phone gets 5 tries per code.
    expect(byPhone.body.returnData).toEqual({ triesLeft: 4 });
    expect(byCode.body.returnData).toEqual({ triesLeft: 3 });
    for (const ipN of ['10.9.0.3', '10.9.0.4', '10.9.0.5']) {
      await t.call('POST', '/api/v1/auth/verify-reset-password', {
        ip: ipN,
        body: { id: m.loginId, code: wrongCode, phone: randomPhone() },
      });
    }
    // The right phone and the right code come too late: the code is used up.
    const late = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      ip: '10.9.0.6',
      body: { id: m.loginId, code, phone: m.phone },
    });
    expect(late.body.returnMessage).toBe('CODE_TRIES_EXCEEDED');
  });

  it('spends the per-IP lookup budget before looking, on every lookup-like route', async () => {
    const m = await signupAndLogin(t);
    const routes: Array<[string, (i: number) => Record<string, unknown>]> = [
      ['/api/v1/auth/verify-reset-password', () => ({ id: randomId('x'), code: '123456' })],
      ['/api/v1/auth/find-phone', () => ({ id: randomId('x') })],
      ['/api/v1/members/check-id', () => ({ loginId: randomId('x') })],
      ['/api/v1/members/check-nickname', () => ({ nickname: randomId('x') })],
      ['/sms/request', () => ({ purpose: 'reset', loginId: randomId('x') })],
      // A signup code for a phone a member already has: PHONE_TAKEN tells it exists, so it pays too.
      ['/sms/request', () => ({ phone: m.phone })],
    ];
    for (const [i, [url, body]] of routes.entries()) {
      const ip = `10.8.0.${i + 1}`;
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++) statuses.push((await t.call('POST', url, { ip, body: body(n) })).status);
      expect(statuses.slice(0, 4), url).not.toContain(429);
      expect(statuses[4], url).toBe(429);
      // Spent before the lookup: with the budget gone, even a lookup that would succeed is refused.
      const known = await t.call('POST', '/api/v1/auth/find-phone', { ip, body: { id: m.loginId } });
      expect(known.status, url).toBe(429);
    }
  });
});

describe('operators are never reset by SMS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(RELAXED_LIMITS);
  });
  afterAll(() => t.close());

  it('find-phone, the reset code and verify-reset treat an operator id as unknown', async () => {
    const op = await createMember(t, { role: 'OPERATOR' });
    const find = await t.call('POST', '/api/v1/auth/find-phone', { body: { id: op.loginId } });
    const send = await t.call('POST', '/sms/request', { body: { purpose: 'reset', loginId: op.loginId } });
    const verify = await t.call('POST', '/api/v1/auth/verify-reset-password', {
      body: { id: op.loginId, code: '123456' },
    });
    for (const r of [find, send, verify]) {
      expect(r.status).toBe(404);
      expect(r.body.returnMessage).toBe('NOT_FOUND_MEMBER_ID');
    }
    // Nothing was sent to the operator's phone.
    expect((await t.call('GET', `/dev/sms/outbox?phone=${encodeURIComponent(op.phoneE164)}`)).status).toBe(
      404,
    );
  });
});

// One id guessed from many addresses is slowed down, never refused (DECISIONS §21): lockout.test.ts.
describe('login limits: spraying ids from one address or many is limited before argon2 runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...RELAXED_LIMITS,
      LOGIN_MAX_FAILURES_PER_IP: '5',
      LOGIN_GLOBAL_FAILURES_PER_MIN: '20',
    });
  });
  afterAll(() => t.close());

  const login = (loginId: string, password: string, ip: string) =>
    t.call('POST', '/api/v1/auth/login', { ip, body: { loginId, password } });

  it('many ids from one IP: the sixth failure is refused, another IP is not affected', async () => {
    const m = await signupAndLogin(t);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await login(randomId('spray'), 'guess-123', '10.7.0.1')).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    // Even the right password is not tried from that address now.
    expect((await login(m.loginId, m.password, '10.7.0.1')).status).toBe(429);
    expect((await login(m.loginId, m.password, '10.7.0.2')).status).toBe(200);
  });

  it('successful logins give their points back: a busy office behind one address is not locked out', async () => {
    const m = await signupAndLogin(t);
    for (let i = 0; i < 8; i++) expect((await login(m.loginId, m.password, '10.5.0.1')).status).toBe(200);
  });

  it('the global budget caps failures from everywhere (the argon2 cost of an attack is bounded)', async () => {
    let limited = 0;
    for (let i = 0; i < 30; i++) {
      const r = await login(randomId('g'), 'guess-123', `10.4.${i}.1`);
      if (r.status === 429) limited++;
    }
    // 20 per minute in all, some of them already spent by the tests above.
    expect(limited).toBeGreaterThanOrEqual(10);
  });
});

describe('names refuse invisible and reordering characters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(RELAXED_LIMITS);
  });
  afterAll(() => t.close());

  it('a look-alike nickname or name cannot be registered; full-width forms collide with the plain one', async () => {
    const m = await signupAndLogin(t);
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone);
    expect((await t.call('POST', '/sms/verify', { body: { phone, code } })).status).toBe(200);
    const signup = (nickname: string, name = 'Kim Test') =>
      t.call<{ fields?: Record<string, string> }>('POST', '/api/v1/members/signup', {
        body: {
          loginId: randomId('u'),
          password: 'abc123!',
          name,
          nickname,
          countryCode: '82',
          phoneE164: phone,
        },
      });
    for (const nickname of [
      `${m.nickname.slice(0, 4)}\u200b${m.nickname.slice(4)}`,
      `\u202e${m.nickname}`,
      `${m.nickname}\u0007`,
    ]) {
      const r = await signup(nickname);
      expect(r.status).toBe(400);
      expect(r.body.returnData.fields).toEqual({ nickname: 'INVALID_FORMAT' });
    }
    const bidiName = await signup(randomId('n'), 'Kim\u2066Test');
    expect(bidiName.body.returnData.fields).toEqual({ name: 'INVALID_FORMAT' });
    const fullWidth = m.nickname.replace(/[a-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const taken = await signup(fullWidth);
    expect(taken.status).toBe(409);
    expect(taken.body.returnMessage).toBe('NICKNAME_TAKEN');
    const check = await t.call<{ available: boolean }>('POST', '/api/v1/members/check-nickname', {
      body: { nickname: fullWidth },
    });
    expect(check.body.returnData.available).toBe(false);
  });

  it('a bank name with a bidi override is refused by PUT /my', async () => {
    const m = await signupAndLogin(t);
    const r = await t.call<{ fields?: Record<string, string> }>('PUT', '/my', {
      token: m.accessToken,
      body: {
        nickName: m.nickname,
        countryCode: '82',
        phoneE164: m.phone,
        bankName: '국민\u202e은행',
        accountNo: '123456',
        currentPassword: m.password,
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.returnData.fields?.bankName).toBe('INVALID_FORMAT');
  });
});
