import { toUnits } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import { BTC_PRICE, btcMarket, buyBody, escrow, operator, trader } from '../orders/test-kit.ts';
import {
  RELAXED_LIMITS,
  randomPhone,
  requestAndReadCode,
  type SignedUp,
  signupAndLogin,
} from './test-kit.ts';

/**
 * DECISIONS §13, written as the attacks of the security review (docs/security.md) that must now fail: an access token alone (stolen from
 * a device, 15 minutes of life) cannot change the password, phone or bank account, cannot withdraw to an
 * outside address and cannot release escrow; one member's phone verification never counts for another.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...RELAXED_LIMITS, WITHDRAW_FEE_ETH: '0.01' });
});
afterAll(() => t.close());

const EXTERNAL_ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

type ProfileOut = { nickname: string; phoneE164: string; bankName: string | null; accountNo: string | null };
const profile = async (token: string) => (await t.call<ProfileOut>('GET', '/my', { token })).body.returnData;
const put = (m: SignedUp, patch: Record<string, unknown>) =>
  t.call('PUT', '/my', {
    token: m.accessToken,
    body: {
      nickName: m.nickname,
      password: '',
      countryCode: '82',
      phoneE164: m.phone,
      bankName: '신한은행',
      accountNo: '110123456789',
      ...patch,
    },
  });
const login = (loginId: string, password: string) =>
  t.call('POST', '/api/v1/auth/login', { body: { loginId, password } });
/** Requests and verifies a 'member' code for `phone` with `token`, as the web app's verify step does. */
async function verifyAsMember(token: string, phone: string) {
  const code = await requestAndReadCode(t, phone, { token });
  const r = await t.call('POST', '/sms/verify', { token, body: { phone, code } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('PUT /my with an access token alone', () => {
  it('cannot change the password, phone or bank account; nothing is written', async () => {
    const m = await signupAndLogin(t);
    const newPhone = randomPhone();
    await verifyAsMember(m.accessToken, newPhone); // even with the new phone verified by the thief
    const attacks: Record<string, unknown>[] = [
      { password: 'stolen99!' },
      { phoneE164: newPhone },
      { bankName: 'KB국민은행' },
      { accountNo: '999999999999' },
    ];
    for (const attack of attacks) {
      const missing = await put(m, attack);
      expect([missing.status, missing.body.returnMessage], JSON.stringify(attack)).toEqual([
        400,
        'CURRENT_PASSWORD_REQUIRED',
      ]);
      const empty = await put(m, { ...attack, currentPassword: '' });
      expect(empty.body.returnMessage).toBe('CURRENT_PASSWORD_REQUIRED');
    }
    const wrong = await put(m, { password: 'stolen99!', currentPassword: 'guess123!' });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([400, 'INVALID_CREDENTIALS']);
    expect(await profile(m.accessToken)).toMatchObject({
      phoneE164: m.phone,
      bankName: null,
      accountNo: null,
    });
    expect((await login(m.loginId, m.password)).status).toBe(200);
    expect((await login(m.loginId, 'stolen99!')).body.returnMessage).toBe('INVALID_CREDENTIALS');

    // The member, who knows the password, can; a nickname-only change then needs no password.
    const own = await put(m, { phoneE164: newPhone, currentPassword: m.password });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const nick = await put(m, { phoneE164: newPhone, nickName: `${m.nickname}x`.slice(0, 12) });
    expect(nick.status, JSON.stringify(nick.body)).toBe(200);
    expect(await profile(m.accessToken)).toMatchObject({ phoneE164: newPhone, bankName: '신한은행' });
  });

  it('cannot guess the password: 5 wrong tries, then 429 even for the right one', async () => {
    const m = await signupAndLogin(t);
    for (let i = 0; i < 5; i++) {
      const r = await put(m, { password: 'stolen99!', currentPassword: `guess${i}xx!` });
      expect(r.body.returnMessage).toBe('INVALID_CREDENTIALS');
    }
    const limited = await put(m, { password: 'stolen99!', currentPassword: m.password });
    expect([limited.status, limited.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
    expect((await login(m.loginId, m.password)).status).toBe(200);
    // Another member's budget is untouched.
    const other = await signupAndLogin(t);
    expect((await put(other, { currentPassword: other.password })).status).toBe(200);
  });
});

describe('phone verifications carry the member who made them', () => {
  it("member B cannot put a phone verified by member A in B's profile", async () => {
    const a = await signupAndLogin(t);
    const b = await signupAndLogin(t);
    const phone = randomPhone();
    await verifyAsMember(a.accessToken, phone);
    const stolen = await put(b, { phoneE164: phone, currentPassword: b.password });
    expect([stolen.status, stolen.body.returnMessage]).toEqual([400, 'PHONE_NOT_VERIFIED']);
    expect((await profile(b.accessToken)).phoneE164).toBe(b.phone);
    const own = await put(a, { phoneE164: phone, currentPassword: a.password });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it("member B cannot verify a code that was sent for member A, and A's code keeps working", async () => {
    const a = await signupAndLogin(t);
    const b = await signupAndLogin(t);
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone, { token: a.accessToken });
    const byB = await t.call('POST', '/sms/verify', { token: b.accessToken, body: { phone, code } });
    expect([byB.status, byB.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
    const byA = await t.call('POST', '/sms/verify', { token: a.accessToken, body: { phone, code } });
    expect(byA.status).toBe(200);
  });

  it("B's purchase check of A's phone does not count for A's purchase", async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const a = await trader(t, 'BTC');
    const b = await createMember(t);
    await verifyAsMember(b.token, a.phoneE164);
    const order = () =>
      t.call('POST', '/buy-orders', { token: a.token, body: buyBody(id, 1_000_000, BTC_PRICE, a.wallet.id) });
    const refused = await order();
    expect([refused.status, refused.body.returnMessage]).toEqual([422, 'PURCHASE_NOT_VERIFIED']);
    await verifyAsMember(a.token, a.phoneE164);
    expect((await order()).status).toBe(200);
  });
});

describe('internal transfers with an access token alone', () => {
  it("cannot move coins to another member's wallet (the thief's own account) without a step-up", async () => {
    const victim = await createMember(t);
    const thief = await createMember(t);
    const from = await createWalletFor(t, victim.id, 'ETH');
    const to = await createWalletFor(t, thief.id, 'ETH');
    await fundMember(t, victim.id, 'ETH', '2');
    const send = (extra: Record<string, unknown>) =>
      t.call('POST', '/transfer/request', {
        token: victim.token,
        body: {
          fromWalletId: from.id,
          destType: 'INTERNAL',
          amount: '1',
          destInternalAddress: to.address,
          ...extra,
        },
      });
    const none = await send({});
    expect([none.status, none.body.returnMessage]).toEqual([422, 'STEP_UP_REQUIRED']);
    const wrong = await send({ stepUp: { password: 'guess123!' } });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([400, 'INVALID_CREDENTIALS']);
    expect(await balanceOf(t.app.deps.db, account.available(thief.id, 'ETH'))).toBe(0n);
    // The member who knows the password sends it.
    expect((await send({ stepUp: { password: victim.password } })).status).toBe(200);
    expect(await balanceOf(t.app.deps.db, account.available(thief.id, 'ETH'))).toBe(toUnits('1'));
    await t.assertLedger();
  });
});

describe('external withdrawals with an access token alone', () => {
  let m: FixtureMember;
  let walletId: number;
  const withdraw = (body: Record<string, unknown>, who: FixtureMember = m) =>
    t.call<{ status: string }>('POST', '/transfer/request', {
      token: who.token,
      body: {
        fromWalletId: walletId,
        destType: 'EXTERNAL',
        amount: '0.5',
        destExternalAddress: EXTERNAL_ETH,
        ...body,
      },
    });
  const avail = () => balanceOf(t.app.deps.db, account.available(m.id, 'ETH'));
  const transfers = async () =>
    (await t.app.deps.db.selectFrom('transfers').select('id').where('member_id', '=', m.id).execute()).length;

  beforeAll(async () => {
    m = await createMember(t);
    walletId = (await createWalletFor(t, m.id, 'ETH')).id;
    await fundMember(t, m.id, 'ETH', '5');
  });

  it('are refused without a step-up or with a wrong one; nothing moves', async () => {
    const before = await avail();
    const none = await withdraw({});
    expect([none.status, none.body.returnMessage]).toEqual([422, 'STEP_UP_REQUIRED']);
    const wrong = await withdraw({ stepUp: { password: 'guess123!' } });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([400, 'INVALID_CREDENTIALS']);
    const noCode = await withdraw({ stepUp: { code: '123456' } });
    expect([noCode.status, noCode.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
    for (const stepUp of [{}, { password: '' }, { code: '12' }, { password: 'x', code: '123456' }, 'pw']) {
      const bad = await withdraw({ stepUp });
      expect([bad.status, bad.body.returnMessage], JSON.stringify(stepUp)).toEqual([
        400,
        'VALIDATION_FAILED',
      ]);
    }
    expect(await avail()).toBe(before);
    expect(await transfers()).toBe(0);
    await t.assertLedger();
  });

  it('go through with the password, or with a fresh code of the own phone used once', async () => {
    const byPassword = await withdraw({ stepUp: { password: m.password } });
    expect(byPassword.status, JSON.stringify(byPassword.body)).toBe(200);
    expect(byPassword.body.returnData.status).toBe('PENDING');

    const code = await requestAndReadCode(t, m.phoneE164, { token: m.token });
    const wrongCode = await withdraw({ stepUp: { code: code === '000000' ? '000001' : '000000' } });
    expect(wrongCode.body.returnMessage).toBe('CODE_MISMATCH');
    const byCode = await withdraw({ stepUp: { code } });
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    const replay = await withdraw({ stepUp: { code } });
    expect([replay.status, replay.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
    expect(await avail()).toBe(toUnits('5') - 2n * toUnits('0.51'));
    await t.assertLedger();
  });

  it("a code another member had sent to this member's phone is no step-up", async () => {
    const other = await createMember(t);
    const code = await requestAndReadCode(t, m.phoneE164, { token: other.token });
    const r = await withdraw({ stepUp: { code } });
    expect([r.status, r.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
  });

  it('share the failure budget with PUT /my: after 5 wrong tries even the right password is 429', async () => {
    const v = await createMember(t);
    const w = await createWalletFor(t, v.id, 'ETH');
    await fundMember(t, v.id, 'ETH', '1');
    const send = (stepUp: Record<string, string>) =>
      t.call('POST', '/transfer/request', {
        token: v.token,
        body: {
          fromWalletId: w.id,
          destType: 'EXTERNAL',
          amount: '0.1',
          destExternalAddress: EXTERNAL_ETH,
          stepUp,
        },
      });
    for (let i = 0; i < 5; i++) expect((await send({ password: `guess${i}xx` })).status).toBe(400);
    const limited = await send({ password: v.password });
    expect([limited.status, limited.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
    const modify = await t.call('PUT', '/my', {
      token: v.token,
      body: {
        nickName: v.nickname,
        password: 'newpass1!',
        currentPassword: v.password,
        countryCode: '82',
        phoneE164: v.phoneE164,
        bankName: 'KB국민은행',
        accountNo: '12345678901234',
      },
    });
    expect([modify.status, modify.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
    expect(await balanceOf(t.app.deps.db, account.available(v.id, 'ETH'))).toBe(toUnits('1'));
  });
});

describe("the seller's release with an access token alone", () => {
  it('is refused without a step-up or with a wrong password; escrow stays; the password completes it', async () => {
    const op = await operator(t);
    const { seller, buyer, id } = await btcMarket(t, op);
    const o = await t.call<{ orderId: number }>('POST', '/buy-orders', {
      token: buyer.token,
      body: buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
    });
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    const url = `/buy-orders/${o.body.returnData.orderId}/complete`;
    const held = await escrow(t, seller.id, 'BTC');
    const none = await t.call('POST', url, { token: seller.token, body: { txid: 'tx-1' } });
    expect([none.status, none.body.returnMessage]).toEqual([422, 'STEP_UP_REQUIRED']);
    const wrong = await t.call('POST', url, {
      token: seller.token,
      body: { txid: 'tx-1', stepUp: { password: 'guess123!' } },
    });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([400, 'INVALID_CREDENTIALS']);
    expect(await escrow(t, seller.id, 'BTC')).toBe(held);
    const detail = await t.call<{ status: string }>('GET', `/my/sell-history/${o.body.returnData.orderId}`, {
      token: seller.token,
    });
    expect(detail.body.returnData.status).not.toBe('COMPLETED');

    const done = await t.call<{ status: string }>('POST', url, {
      token: seller.token,
      body: { txid: 'tx-1', stepUp: { password: seller.password } },
    });
    expect([done.status, done.body.returnData.status]).toEqual([200, 'COMPLETED']);
    await t.assertLedger();
  });
});
