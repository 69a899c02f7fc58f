import type { OpsAuditEntry, OpsTotpEnrollment, OpsTotpStatus, TokenPair } from '@p2p/contract';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { hashPassword, openTotpSecret, totpKey } from '../identity/index.ts';
import { ensureOperator } from './operators.ts';
import { resetTotp } from './totp.ts';

const PASSWORD = 'Ops!pass12';

/** The current 30-second TOTP time step. */
const stepNow = () => Math.floor(Date.now() / 1000 / 30);
/** The code of time step `step`. */
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * 30 });
/** A 6-digit string that is no valid code anywhere near now. */
async function wrongCode(secret: string): Promise<string> {
  const near = new Set<string>();
  for (let d = -3; d <= 3; d++) near.add(await codeAt(secret, stepNow() + d));
  for (let n = 0; ; n++) {
    const c = String(n * 7919)
      .padStart(6, '0')
      .slice(-6);
    if (!near.has(c)) return c;
  }
}

let t: TestApp;

async function operator(loginId: string): Promise<{ id: number; token: string }> {
  const r = await ensureOperator(t.app.deps.db, { loginId, password: PASSWORD });
  const token = await login(loginId);
  expect(token.status).toBe(200);
  return { id: r.id, token: token.body.returnData.accessToken };
}

function login(loginId: string, extra: { password?: string; totpCode?: string } = {}) {
  return t.call<TokenPair>('POST', '/api/v1/auth/login', {
    body: {
      loginId,
      password: extra.password ?? PASSWORD,
      ...(extra.totpCode ? { totpCode: extra.totpCode } : {}),
    },
  });
}

/** Enrolls and confirms with the code of the current step; returns the secret and that step. */
async function enrollAndConfirm(token: string): Promise<{ secret: string; step: number }> {
  const e = await t.call<OpsTotpEnrollment>('POST', '/ops/api/v1/totp/enroll', { token });
  expect(e.status).toBe(200);
  const { secret } = e.body.returnData;
  const step = stepNow();
  const c = await t.call<OpsTotpStatus>('POST', '/ops/api/v1/totp/confirm', {
    token,
    body: { code: await codeAt(secret, step) },
  });
  expect(c.status).toBe(200);
  return { secret, step };
}

beforeAll(async () => {
  // The per-id+IP limit is tested on its own app below; here it must not get in the way.
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS: '100' });
});
afterAll(() => t.close());

describe('operator TOTP API (DECISIONS §13)', () => {
  let member: FixtureMember;
  beforeAll(async () => {
    member = await createMember(t);
  });

  it.each([
    ['GET', '/ops/api/v1/totp', undefined],
    ['POST', '/ops/api/v1/totp/enroll', undefined],
    ['POST', '/ops/api/v1/totp/confirm', { code: '123456' }],
  ])('%s %s: 401 without a token, 403 FORBIDDEN for a member', async (method, url, body) => {
    expect((await t.call(method, url, { body })).status).toBe(401);
    const asMember = await t.call(method, url, { body, token: member.token });
    expect(asMember.status).toBe(403);
    expect(asMember.body.returnMessage).toBe('FORBIDDEN');
  });

  it('enrolls a pending secret, confirms it with a code, then refuses a second enrollment', async () => {
    const op = await operator('totpone');
    const status0 = await t.call<OpsTotpStatus>('GET', '/ops/api/v1/totp', { token: op.token });
    expect(status0.status).toBe(200);
    expect(status0.body.returnData).toEqual({ enrolled: false, pending: false, confirmedAt: null });

    const first = await t.call<OpsTotpEnrollment>('POST', '/ops/api/v1/totp/enroll', { token: op.token });
    expect(first.status).toBe(200);
    expect(first.body.returnData.secret).toMatch(/^[A-Z2-7]{32}$/);
    // Enrolling again before confirming replaces the pending secret.
    const e = await t.call<OpsTotpEnrollment>('POST', '/ops/api/v1/totp/enroll', { token: op.token });
    const { secret, otpauthUrl } = e.body.returnData;
    expect(secret).not.toBe(first.body.returnData.secret);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(decodeURIComponent(url.pathname)).toContain('totpone');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBeTruthy();

    const pending = await t.call<OpsTotpStatus>('GET', '/ops/api/v1/totp', { token: op.token });
    expect(pending.body.returnData).toEqual({ enrolled: false, pending: true, confirmedAt: null });
    // Not on yet: the password alone still signs in.
    expect((await login('totpone')).status).toBe(200);

    // The secret is kept sealed: not readable in the row, opened only with the key and this operator's id.
    const row = await t.app.deps.db
      .selectFrom('operator_totp')
      .selectAll()
      .where('member_id', '=', op.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(secret);
    const key = totpKey(t.app.deps.config);
    expect(openTotpSecret(key, op.id, row.secret_enc)).toBe(secret);
    expect(() => openTotpSecret(key, op.id + 1, row.secret_enc)).toThrow(/cannot be opened/);

    const bad = await t.call('POST', '/ops/api/v1/totp/confirm', {
      token: op.token,
      body: { code: await wrongCode(secret) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.returnMessage).toBe('TOTP_INVALID');
    const malformed = await t.call('POST', '/ops/api/v1/totp/confirm', {
      token: op.token,
      body: { code: '12a4' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.returnMessage).toBe('VALIDATION_FAILED');
    expect(
      (await t.call<OpsTotpStatus>('GET', '/ops/api/v1/totp', { token: op.token })).body.returnData.enrolled,
    ).toBe(false);

    const ok = await t.call<OpsTotpStatus>('POST', '/ops/api/v1/totp/confirm', {
      token: op.token,
      body: { code: await codeAt(secret, stepNow()) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.returnData.enrolled).toBe(true);
    expect(ok.body.returnData.pending).toBe(false);
    expect(Number.isNaN(Date.parse(ok.body.returnData.confirmedAt ?? ''))).toBe(false);

    const again = await t.call('POST', '/ops/api/v1/totp/enroll', { token: op.token });
    expect(again.status).toBe(409);
    expect(again.body.returnMessage).toBe('TOTP_ALREADY_ENROLLED');
    const reconfirm = await t.call('POST', '/ops/api/v1/totp/confirm', {
      token: op.token,
      body: { code: await codeAt(secret, stepNow()) },
    });
    expect(reconfirm.status).toBe(409);

    const log = await t.call<{ list: OpsAuditEntry[] }>('GET', '/ops/api/v1/audit-log?size=50', {
      token: op.token,
    });
    const mine = log.body.returnData.list.filter((a) => a.operatorId === op.id).map((a) => a.action);
    expect(mine.sort()).toEqual(['operator.totp.confirm', 'operator.totp.enroll', 'operator.totp.enroll']);
  });

  it('confirm without an enrollment is 409 INVALID_STATE', async () => {
    const op = await operator('totpnone');
    const r = await t.call('POST', '/ops/api/v1/totp/confirm', { token: op.token, body: { code: '123456' } });
    expect(r.status).toBe(409);
    expect(r.body.returnMessage).toBe('INVALID_STATE');
  });
});

describe('sign-in with a confirmed TOTP', () => {
  let op: { id: number; token: string };
  let secret: string;
  let confirmStep: number;
  beforeAll(async () => {
    op = await operator('totptwo');
    ({ secret, step: confirmStep } = await enrollAndConfirm(op.token));
  });

  it('asks for the code only after a right password: 401 TOTP_REQUIRED', async () => {
    const noCode = await login('totptwo');
    expect(noCode.status).toBe(401);
    expect(noCode.body).toEqual({ returnCode: 401, returnMessage: 'TOTP_REQUIRED', returnData: null });
    const wrongPassword = await login('totptwo', { password: 'Wrong!pass1' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.returnMessage).toBe('INVALID_CREDENTIALS');
    const wrongBoth = await login('totptwo', { password: 'Wrong!pass1', totpCode: await wrongCode(secret) });
    expect(wrongBoth.body.returnMessage).toBe('INVALID_CREDENTIALS');
  });

  it('refuses a wrong code, a malformed one and the code used to confirm (400)', async () => {
    const wrong = await login('totptwo', { totpCode: await wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.returnMessage).toBe('TOTP_INVALID');
    const malformed = await login('totptwo', { totpCode: '12345' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.returnMessage).toBe('VALIDATION_FAILED');
    const confirmCode = await login('totptwo', { totpCode: await codeAt(secret, confirmStep) });
    expect(confirmCode.status).toBe(400);
    expect(confirmCode.body.returnMessage).toBe('TOTP_INVALID');
  });

  it('signs in with a fresh code once; the same code again is refused (replay)', async () => {
    // The step after the confirmation's: unused, and within ±1 step of the server's clock.
    const code = await codeAt(secret, confirmStep + 1);
    const r = await login('totptwo', { totpCode: code });
    expect(r.status).toBe(200);
    const me = await t.call<OpsTotpStatus>('GET', '/ops/api/v1/totp', {
      token: r.body.returnData.accessToken,
    });
    expect(me.body.returnData.enrolled).toBe(true);
    const replay = await login('totptwo', { totpCode: code });
    expect(replay.status).toBe(400);
    expect(replay.body.returnMessage).toBe('TOTP_INVALID');
  });

  it('lets one of two concurrent sign-ins with one code through', async () => {
    const other = await operator('totpthree');
    const { secret: s2, step } = await enrollAndConfirm(other.token);
    const code = await codeAt(s2, step + 1);
    const results = await Promise.all([
      login('totpthree', { totpCode: code }),
      login('totpthree', { totpCode: code }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('leaves members alone: a member signs in with the password, a totpCode is ignored', async () => {
    const m = await createMember(t);
    await t.app.deps.db
      .updateTable('members')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', m.id)
      .execute();
    expect((await login(m.loginId)).status).toBe(200);
    expect((await login(m.loginId, { totpCode: '000000' })).status).toBe(200);
  });

  it('after a reset the password alone signs in again and a new enrollment is possible', async () => {
    const reset = await resetTotp(t.app.deps.db, op.id, 'test');
    expect(reset).toBe(true);
    expect(await resetTotp(t.app.deps.db, op.id, 'test')).toBe(false);
    const r = await login('totptwo');
    expect(r.status).toBe(200);
    const token = r.body.returnData.accessToken;
    expect((await t.call<OpsTotpStatus>('GET', '/ops/api/v1/totp', { token })).body.returnData).toEqual({
      enrolled: false,
      pending: false,
      confirmedAt: null,
    });
    expect((await t.call('POST', '/ops/api/v1/totp/enroll', { token })).status).toBe(200);
    const log = await t.call<{ list: OpsAuditEntry[] }>('GET', '/ops/api/v1/audit-log?size=50', { token });
    expect(log.body.returnData.list.find((a) => a.action === 'operator.totp.reset')).toMatchObject({
      operatorId: op.id,
      targetType: 'member',
      targetId: String(op.id),
    });
  });
});

describe('TOTP guesses spend the login budget', () => {
  let t2: TestApp;
  beforeAll(async () => {
    t2 = await createTestApp({ LOGIN_MAX_ATTEMPTS: '3' });
  });
  afterAll(() => t2.close());

  it('wrong codes after a right password count as failed attempts (429 RATE_LIMITED)', async () => {
    const saved = t;
    t = t2;
    try {
      const op = await operator('totpguess');
      const { secret } = await enrollAndConfirm(op.token);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await login('totpguess', { totpCode: await wrongCode(secret) })).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      t = saved;
    }
  });
});
