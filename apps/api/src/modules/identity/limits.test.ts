import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { AppError } from '../../errors/index.ts';
import { createIdentityLimits } from './limits.ts';
import { RELAXED_LIMITS, randomPhone, signupAndLogin } from './test-kit.ts';

const apps: TestApp[] = [];
async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ ...RELAXED_LIMITS, ...env });
  apps.push(t);
  return t;
}
afterAll(async () => {
  for (const t of apps) await t.close();
});

const randomIp = () => `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join('.')}`;
const ask = (t: TestApp, phone: string, ip = '127.0.0.1') =>
  t.call('POST', '/sms/request', { body: { phone }, ip });

function expectLimited(res: {
  status: number;
  body: { returnCode: number; returnMessage: string; returnData: unknown };
}) {
  expect(res.status).toBe(429);
  expect(res.body.returnCode).toBe(429);
  expect(res.body.returnMessage).toBe('RATE_LIMITED');
  expect(res.body.returnData).toEqual({ retryAfterSec: expect.any(Number) });
}

// Two apps cover every limit: one with a resend cooldown, one without (so per-phone counts can be reached).
// Each case uses its own phones and IPs, so the cases do not eat each other's points.
let cooldownApp: TestApp;
let countApp: TestApp;
beforeAll(async () => {
  cooldownApp = await app({ SMS_RESEND_COOLDOWN_SEC: '30' });
  countApp = await app({ SMS_PER_IP_PER_HOUR: '3', SMS_PER_PHONE_PER_HOUR: '2', LOGIN_MAX_ATTEMPTS: '3' });
});

describe('SMS limits (DECISIONS §6)', () => {
  it('resend cooldown per phone', async () => {
    const t = cooldownApp;
    const phone = randomPhone();
    expect((await ask(t, phone)).status).toBe(200);
    const again = await ask(t, phone, '10.9.9.9');
    expectLimited(again);
    expect((again.body.returnData as { retryAfterSec: number }).retryAfterSec).toBeGreaterThan(25);
    expect((await ask(t, randomPhone())).status).toBe(200);
  });

  it('sends per IP per hour', async () => {
    const t = countApp;
    for (let i = 0; i < 3; i++) expect((await ask(t, randomPhone(), '10.1.1.1')).status).toBe(200);
    expectLimited(await ask(t, randomPhone(), '10.1.1.1'));
    expect((await ask(t, randomPhone(), '10.1.1.2')).status).toBe(200);
  });

  it('sends per phone per hour, whatever the IP', async () => {
    const t = countApp;
    const phone = randomPhone();
    expect((await ask(t, phone, '10.2.0.1')).status).toBe(200);
    expect((await ask(t, phone, '10.2.0.2')).status).toBe(200);
    expectLimited(await ask(t, phone, '10.2.0.3'));
  });

  it('the password-reset code counts against the stored phone', async () => {
    const t = countApp;
    const m = await signupAndLogin(t); // the signup code was the first send to this phone
    const body = { purpose: 'reset', loginId: m.loginId };
    expect((await t.call('POST', '/sms/request', { body, ip: '10.4.0.1' })).status).toBe(200);
    expectLimited(await t.call('POST', '/sms/request', { body, ip: '10.4.0.2' }));
  });
});

describe('account lookups per IP', () => {
  it('check-id, check-nickname and find-phone share one per-IP budget', async () => {
    const t = await app({ LOOKUP_PER_IP_PER_HOUR: '3' });
    const ip = '10.5.0.1';
    expect(
      (await t.call('POST', '/api/v1/members/check-id', { body: { loginId: 'lookup1' }, ip })).status,
    ).toBe(200);
    expect(
      (await t.call('POST', '/api/v1/members/check-nickname', { body: { nickname: 'lookup1' }, ip })).status,
    ).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/find-phone', { body: { id: 'nobody1' }, ip })).status).toBe(
      404,
    );
    expectLimited(await t.call('POST', '/api/v1/members/check-id', { body: { loginId: 'lookup2' }, ip }));
    expectLimited(await t.call('POST', '/api/v1/auth/find-phone', { body: { id: 'nobody1' }, ip }));
    expect(
      (await t.call('POST', '/api/v1/members/check-id', { body: { loginId: 'lookup2' }, ip: '10.5.0.2' }))
        .status,
    ).toBe(200);
  });
});

describe('login attempts per loginId + IP', () => {
  it('limits failed attempts, not other IPs, and a success clears them', async () => {
    const t = countApp;
    const m = await signupAndLogin(t);
    const tryLogin = (password: string, ip = '10.3.0.1') =>
      t.call('POST', '/api/v1/auth/login', { body: { loginId: m.loginId, password }, ip });
    for (let i = 0; i < 3; i++)
      expect((await tryLogin('wrong-pw1')).body.returnMessage).toBe('INVALID_CREDENTIALS');
    expectLimited(await tryLogin(m.password));
    // Another IP counts apart; the same id in another case counts together.
    expect((await tryLogin(m.password, '10.3.0.2')).status).toBe(200);
    expectLimited(
      await t.call('POST', '/api/v1/auth/login', {
        body: { loginId: m.loginId.toUpperCase(), password: m.password },
        ip: '10.3.0.1',
      }),
    );

    // A success resets the count.
    for (let i = 0; i < 2; i++) await tryLogin('wrong-pw1', '10.3.0.9');
    expect((await tryLogin(m.password, '10.3.0.9')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await tryLogin('wrong-pw1', '10.3.0.9')).status).toBe(400);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('limits on Redis (TEST_REDIS_URL), shared by several API instances', () => {
  it('two limiter sets with one prefix share the count', async () => {
    const redis = new Redis(redisUrl ?? '');
    const prefix = `test:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}`;
    try {
      const config = loadConfig({ SMS_PER_IP_PER_HOUR: '2', SMS_RESEND_COOLDOWN_SEC: '0' });
      const a = createIdentityLimits(config, redis, prefix);
      const b = createIdentityLimits(config, redis, prefix);
      await a.smsPerIp.consume('10.0.0.1');
      await b.smsPerIp.consume('10.0.0.1');
      const err = await a.smsPerIp.consume('10.0.0.1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('RATE_LIMITED');
      expect(await redis.exists(`${prefix}:sms-ip:10.0.0.1`)).toBe(1);
      // Another prefix (another deployment or test run) is untouched.
      await createIdentityLimits(config, redis, `${prefix}:other`).smsPerIp.consume('10.0.0.1');
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('over HTTP: two API instances on one Redis share the per-IP limit and the dev outbox', async () => {
    const env = { REDIS_URL: redisUrl ?? '', SMS_PER_IP_PER_HOUR: '2' };
    const [one, two] = [await app(env), await app(env)];
    const ip = randomIp();
    const phone = randomPhone();
    expect((await ask(one, phone, ip)).status).toBe(200);
    const seen = await two.call<{ code: string }>(
      'GET',
      `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`,
    );
    expect(seen.status).toBe(200);
    expect(seen.body.returnData.code).toMatch(/^\d{6}$/);
    expect((await ask(two, randomPhone(), ip)).status).toBe(200);
    expectLimited(await ask(one, randomPhone(), ip));
    expectLimited(await ask(two, randomPhone(), ip));
  });
});
