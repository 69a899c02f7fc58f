import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { createIdentityLimits } from './limits.ts';
import { loginSlowDownMs } from './session.ts';
import { signupAndLogin } from './test-kit.ts';

/**
 * Targeted lockout (DECISIONS §21), written as the attack: a stranger who knows a member's or an operator's
 * login id fails on purpose from address after address to lock them out. The login limits stay at their
 * production defaults here (10 attempts per id + address, 50 failures per address, 600 a minute in all);
 * only the SMS budgets are lifted for the sign-ups, and the slow-down's cap is a few milliseconds so the
 * test does not sit through seconds of waiting.
 */
const SIGNUP_BUDGETS = {
  SMS_RESEND_COOLDOWN_SEC: '0',
  SMS_PER_PHONE_PER_HOUR: '1000',
  SMS_PER_IP_PER_HOUR: '1000',
  SMS_PER_MEMBER_PER_HOUR: '1000',
  LOOKUP_PER_IP_PER_HOUR: '1000',
};

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

const login = (t: TestApp, loginId: string, password: string, ip: string) =>
  t.call('POST', '/api/v1/auth/login', { ip, body: { loginId, password } });

/** Fails `perAddress` times on `loginId` from each of `addresses`; returns every status, in order. */
async function failFrom(t: TestApp, loginId: string, addresses: string[], perAddress: number) {
  const statuses: number[] = [];
  for (const ip of addresses)
    for (let i = 0; i < perAddress; i++) statuses.push((await login(t, loginId, 'wrong-pass1', ip)).status);
  return statuses;
}

describe('a stranger cannot lock a member or an operator out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...SIGNUP_BUDGETS, LOGIN_SLOWDOWN_MAX_MS: '5' });
    apps.push(t);
  });

  it('50 failures from 5 addresses: the owner signs in from their own; each attacking address is locked', async () => {
    const m = await signupAndLogin(t);
    const attackers = ['10.60.0.1', '10.60.0.2', '10.60.0.3', '10.60.0.4', '10.60.0.5'];
    // Each address gets its 10 attempts (LOGIN_MAX_ATTEMPTS), answered as failures, never refused: 50 in
    // all, past any per-id budget.
    expect(await failFrom(t, m.loginId, attackers, 10)).toEqual(Array(50).fill(400));
    const owner = await login(t, m.loginId, m.password, '10.61.0.1');
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    // The attacker's own addresses are locked for this id, even with the right password, and stay locked
    // after the owner's success.
    for (const ip of attackers) {
      const r = await login(t, m.loginId, m.password, ip);
      expect([r.status, r.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
    }
    // Another address of the owner's gets in too: a failure per id never turns into a refusal.
    expect((await login(t, m.loginId, m.password, '10.61.0.2')).status).toBe(200);
  });

  it('the same for an operator', async () => {
    const op = await createMember(t, { role: 'OPERATOR' });
    const attackers = ['10.62.0.1', '10.62.0.2', '10.62.0.3', '10.62.0.4'];
    expect(await failFrom(t, op.loginId, attackers, 10)).toEqual(Array(40).fill(400));
    expect((await login(t, op.loginId, op.password, '10.63.0.1')).status).toBe(200);
    const locked = await login(t, op.loginId, op.password, attackers[0] ?? '');
    expect(locked.status).toBe(429);
  });
});

describe('the per-id slow-down', () => {
  it('waits longer with each failure of the id from any address, up to its cap; never refuses', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp(
      { ...SIGNUP_BUDGETS, LOG_LEVEL: 'warn', LOGIN_SLOWDOWN_AFTER: '2', LOGIN_SLOWDOWN_MAX_MS: '600' },
      { logStream: sink },
    );
    apps.push(t);
    const m = await signupAndLogin(t);
    const other = await signupAndLogin(t);
    // Five failures, each from another address.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await login(t, m.loginId, 'wrong-pass1', `10.64.0.${i + 1}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    // The owner's sign-in is slowed like the attacker's, and goes through.
    expect((await login(t, m.loginId, m.password, '10.65.0.1')).status).toBe(200);
    // Another member is not slowed at all.
    expect((await login(t, other.loginId, other.password, '10.64.0.1')).status).toBe(200);
    const waits = lines
      .map((l) => JSON.parse(l) as { msg?: string; loginId?: string; failures?: number; waitMs?: number })
      .filter((l) => l.msg?.startsWith('login slowed down'));
    expect(waits.map((w) => [w.loginId, w.failures, w.waitMs])).toEqual([
      [m.loginId, 3, 250],
      [m.loginId, 4, 500],
      [m.loginId, 5, 600],
    ]);
  });

  it('loginSlowDownMs: none up to the threshold, then doubling from 250 ms, capped', () => {
    const waits = Array.from({ length: 12 }, (_, failures) => loginSlowDownMs(failures, 5, 3000));
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 250, 500, 1000, 2000, 3000, 3000]);
    expect(loginSlowDownMs(10_000, 5, 3000)).toBe(3000);
    expect(loginSlowDownMs(50, 5, 0)).toBe(0);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the per-id failure count on Redis (TEST_REDIS_URL)', () => {
  it('is one count for every API instance', async () => {
    const redis = new Redis(redisUrl ?? '');
    const prefix = `test:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}`;
    try {
      const config = loadConfig({});
      const [a, b] = [
        createIdentityLimits(config, redis, prefix),
        createIdentityLimits(config, redis, prefix),
      ];
      expect(await a.loginFailuresPerId.count('victim1')).toBe(0);
      await a.loginFailuresPerId.add('victim1');
      await b.loginFailuresPerId.add('victim1');
      expect(await b.loginFailuresPerId.count('victim1')).toBe(2);
      expect(await a.loginFailuresPerId.count('victim1')).toBe(2);
      expect(await a.loginFailuresPerId.count('someone2')).toBe(0);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });
});
