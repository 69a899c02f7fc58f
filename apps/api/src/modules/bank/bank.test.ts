import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, PRODUCTION_TRUST, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { ipOf, verifyBankVia } from './test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...PRODUCTION_TRUST });
});
afterAll(() => t.close());

const KB = { bankName: 'KB국민은행', accountNo: '94380200112233' };
let seq = 0;
/** A fresh account number per test, so the console outbox holds only this test's deposit. */
const freshAccount = () => ({
  bankName: '신한은행',
  accountNo: `1104${String(Date.now()).slice(-6)}${seq++}`,
});

const ask = (m: FixtureMember, body: Record<string, unknown>) =>
  t.call<{ expiresAt: string; triesLeft: number }>('POST', '/api/v1/bank-account/verify/request', {
    token: m.token,
    ip: ipOf(m.id),
    body,
  });
const verify = (m: FixtureMember, code: unknown) =>
  t.call<{ holderName: string; triesLeft?: number }>('POST', '/api/v1/bank-account/verify', {
    token: m.token,
    ip: ipOf(m.id),
    body: { code },
  });
const outbox = async (accountNo: string) =>
  (await t.call<{ code: string; depositorName: string }>('GET', `/dev/bank/outbox?accountNo=${accountNo}`))
    .body.returnData;
const wrong = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

describe('1원 인증 (DECISIONS §19)', () => {
  it('sends 1 KRW whose depositor name carries the code, and the right code saves the verified account', async () => {
    const m = await createMember(t, { name: '홍길동' });
    const acct = freshAccount();
    const r = await ask(m, acct);
    expect(r.status).toBe(200);
    expect(r.body.returnData.triesLeft).toBe(5);
    const box = await outbox(acct.accountNo);
    expect(box.code).toMatch(/^\d{4}$/);
    expect(box.depositorName).toBe(`P2P${box.code}`);
    const v = await verify(m, box.code);
    expect(v.status).toBe(200);
    expect(v.body.returnData).toMatchObject({ ...acct, holderName: '홍길동' });
    const state = await t.call<{ verified: unknown; pending: unknown }>('GET', '/api/v1/bank-account', {
      token: m.token,
    });
    expect(state.body.returnData).toMatchObject({ verified: { ...acct }, pending: null, required: true });
    const my = await t.call<{ bankName: string; accountNo: string }>('GET', '/my', { token: m.token });
    expect(my.body.returnData).toMatchObject(acct);
    // The code is used: a second try finds nothing open.
    expect((await verify(m, box.code)).body.returnMessage).toBe('CODE_EXPIRED');
  });

  it('counts wrong codes: 5 tries, then the request is closed and only a new one helps', async () => {
    const m = await createMember(t);
    const acct = freshAccount();
    await ask(m, acct);
    const { code } = await outbox(acct.accountNo);
    for (let left = 4; left >= 1; left--) {
      const r = await verify(m, wrong(code));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ returnMessage: 'CODE_MISMATCH', returnData: { triesLeft: left } });
    }
    expect((await verify(m, wrong(code))).body.returnMessage).toBe('CODE_TRIES_EXCEEDED');
    // Even the right code is refused now, and nothing was saved.
    expect((await verify(m, code)).body.returnMessage).toBe('CODE_EXPIRED');
    const state = await t.call<{ verified: unknown }>('GET', '/api/v1/bank-account', { token: m.token });
    expect(state.body.returnData.verified).toBeNull();
  });

  it.runIf(onPostgres)('parallel wrong guesses each count: never more than 5 are checked', async () => {
    const m = await createMember(t);
    const acct = freshAccount();
    await ask(m, acct);
    const { code } = await outbox(acct.accountNo);
    const answers = await Promise.all(Array.from({ length: 12 }, () => verify(m, wrong(code))));
    const codes = answers.map((a) => a.body.returnMessage);
    expect(codes.filter((c) => c === 'CODE_MISMATCH')).toHaveLength(4);
    expect(codes.filter((c) => c === 'CODE_TRIES_EXCEEDED' || c === 'CODE_EXPIRED')).toHaveLength(8);
    expect((await verify(m, code)).body.returnMessage).toBe('CODE_EXPIRED');
  });

  it('a new request replaces the old code; an expired code is refused', async () => {
    const short = await createTestApp({ ...PRODUCTION_TRUST, BANK_VERIFY_CODE_TTL_SEC: '30' });
    try {
      const m = await createMember(short);
      const acct = freshAccount();
      const call = (url: string, body: unknown) =>
        short.call('POST', url, { token: m.token, ip: ipOf(m.id), body });
      await call('/api/v1/bank-account/verify/request', acct);
      const first = (
        await short.call<{ code: string }>('GET', `/dev/bank/outbox?accountNo=${acct.accountNo}`)
      ).body.returnData.code;
      await call('/api/v1/bank-account/verify/request', acct);
      const second = (
        await short.call<{ code: string }>('GET', `/dev/bank/outbox?accountNo=${acct.accountNo}`)
      ).body.returnData.code;
      if (first !== second)
        expect((await call('/api/v1/bank-account/verify', { code: first })).status).toBe(400);
      // Age the open request past its expiry (the clock is the database's, as the check reads it).
      await short.app.deps.db
        .updateTable('bank_verifications')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('member_id', '=', m.id)
        .execute();
      const late = await call('/api/v1/bank-account/verify', { code: second });
      expect(late.body.returnMessage).toBe('CODE_EXPIRED');
    } finally {
      await short.close();
    }
  });

  it('refuses a holder name that is not the verified name; spaces and NFC are normalized, case is not', async () => {
    const cases: [string, string, number][] = [
      ['홍길동', '홍 길동', 422],
      ['Kim Minsu', 'KIM MINSU', 422],
      ['Kim  Minsu', ' Kim Minsu ', 200],
      ['\u1112\u1169\u11bc길동', '홍길동', 200], // the member's name in NFD jamo, the bank's in NFC
    ];
    for (const [memberName, holder, status] of cases) {
      const m = await createMember(t, { name: memberName });
      const acct = freshAccount();
      await t.call('PUT', '/dev/bank/holder', { body: { accountNo: acct.accountNo, holderName: holder } });
      await ask(m, acct);
      const v = await verify(m, (await outbox(acct.accountNo)).code);
      expect([memberName, v.status]).toEqual([memberName, status]);
      if (status === 422) {
        expect(v.body.returnMessage).toBe('ACCOUNT_HOLDER_MISMATCH');
        const s = await t.call<{ verified: unknown }>('GET', '/api/v1/bank-account', { token: m.token });
        expect(s.body.returnData.verified).toBeNull();
      }
    }
  });

  it('changing a verified account needs the step-up and the 1원 check again', async () => {
    const m = await createMember(t);
    await verifyBankVia(t, m, freshAccount());
    const next = freshAccount();
    expect((await ask(m, next)).body.returnMessage).toBe('STEP_UP_REQUIRED');
    expect((await ask(m, { ...next, stepUp: { password: 'wrong-pass-1' } })).body.returnMessage).toBe(
      'INVALID_CREDENTIALS',
    );
    const ok = await ask(m, { ...next, stepUp: { password: m.password } });
    expect(ok.status).toBe(200);
    // Until the new code is entered the old account stays the verified one.
    const s = await t.call<{ verified: { accountNo: string } }>('GET', '/api/v1/bank-account', {
      token: m.token,
    });
    expect(s.body.returnData.verified.accountNo).not.toBe(next.accountNo);
    expect((await verify(m, (await outbox(next.accountNo)).code)).status).toBe(200);
  });

  it('refuses bad input with field codes, never a 5xx', async () => {
    const m = await createMember(t);
    const bad: [unknown, string][] = [
      [{ bankName: '', accountNo: '1234' }, 'bankName'],
      [{ bankName: 'KB', accountNo: '12a34' }, 'accountNo'],
      [{ bankName: 'K\u202eB', accountNo: '1234' }, 'bankName'],
      [{ bankName: 'KB', accountNo: '1'.repeat(31) }, 'accountNo'],
    ];
    for (const [body, field] of bad) {
      const r = await ask(m, body as Record<string, unknown>);
      expect(r.status).toBe(400);
      expect(Object.keys((r.body.returnData as unknown as { fields: object }).fields)).toContain(field);
    }
    for (const code of ['123', '12345', 'abcd', 1234, null]) {
      expect((await verify(m, code)).status).toBe(400);
    }
    expect((await t.call('POST', '/api/v1/bank-account/verify', { body: { code: '1234' } })).status).toBe(
      401,
    );
  });

  it('spends the request budget before it looks anything up (429 RATE_LIMITED)', async () => {
    const m = await createMember(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask(m, freshAccount())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('listings pay only into the verified account (DECISIONS §19)', () => {
  const list = (m: FixtureMember, walletId: number, acct: { bankName: string; accountNo: string }) =>
    t.call('POST', '/api/v1/sell-listings', {
      token: m.token,
      body: {
        walletId,
        minQty: '0.01',
        maxQty: '0.1',
        unitPriceKrw: 50_000_000,
        ...acct,
        stepUp: { password: m.password },
      },
    });

  it('422 BANK_ACCOUNT_NOT_VERIFIED without one or with another account; 200 with the verified one', async () => {
    const m = await createMember(t);
    const w = await createWalletFor(t, m.id, 'BTC');
    await fundMember(t, m.id, 'BTC', '1');
    expect((await list(m, w.id, KB)).body.returnMessage).toBe('BANK_ACCOUNT_NOT_VERIFIED');
    const acct = freshAccount();
    await verifyBankVia(t, m, acct);
    expect((await list(m, w.id, KB)).body.returnMessage).toBe('BANK_ACCOUNT_NOT_VERIFIED');
    expect((await list(m, w.id, { ...acct, bankName: '하나은행' })).body.returnMessage).toBe(
      'BANK_ACCOUNT_NOT_VERIFIED',
    );
    const ok = await list(m, w.id, acct);
    expect(ok.status).toBe(200);
    expect(ok.body.returnData).toMatchObject({ ...acct });
    await t.assertLedger();
  });

  it('BANK_VERIFY_REQUIRED=0 lifts the rule', async () => {
    const off = await createTestApp({ ...PRODUCTION_TRUST, BANK_VERIFY_REQUIRED: '0' });
    try {
      const m = await createMember(off);
      const w = await createWalletFor(off, m.id, 'BTC');
      await fundMember(off, m.id, 'BTC', '1');
      const r = await off.call('POST', '/api/v1/sell-listings', {
        token: m.token,
        body: {
          walletId: w.id,
          minQty: '0.01',
          maxQty: '0.1',
          unitPriceKrw: 1000,
          ...KB,
          stepUp: { password: m.password },
        },
      });
      expect(r.status).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('configuration', () => {
  it('refuses the console bank and Travel Rule providers in production', () => {
    const prod = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig({ ...prod, BANK_VERIFY_PROVIDER: 'console' })).toThrow(/BANK_VERIFY_PROVIDER/);
    expect(() => loadConfig({ ...prod, TRAVEL_RULE_PROVIDER: 'console' })).toThrow(/TRAVEL_RULE_PROVIDER/);
    expect(loadConfig(prod).trust.bank.provider).toBeNull();
    expect(loadConfig({ NODE_ENV: 'development' }).trust.bank.provider).toBe('console');
  });
});
