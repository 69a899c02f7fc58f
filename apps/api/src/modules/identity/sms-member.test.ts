import { toUnits } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, trader } from '../orders/test-kit.ts';
import { RELAXED_LIMITS, randomPhone, requestAndReadCode, signupAndLogin } from './test-kit.ts';

/**
 * SMS codes a signed-in member asks for (DECISIONS §21), written as the attacks: a member (or a thief with
 * their access token) pumping codes to any phone at our cost, and a code sent to another phone than the
 * member's own used as the purchase phone check or a step-up once the member has moved to that phone.
 */

const PER_MEMBER = 3;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...RELAXED_LIMITS, SMS_PER_MEMBER_PER_HOUR: String(PER_MEMBER) });
});
afterAll(() => t.close());

const ask = (phone: string, ip: string, token?: string) =>
  t.call('POST', '/sms/request', { body: { phone }, ip, ...(token ? { token } : {}) });
const outbox = (phone: string) => t.call('GET', `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`);

describe('SMS_PER_MEMBER_PER_HOUR', () => {
  it('defaults to 10', () => {
    expect(loadConfig({}).sms.perMemberPerHour).toBe(10);
  });

  it('caps the codes one signed-in member asks for, whatever the phones and addresses', async () => {
    const m = await signupAndLogin(t);
    // New addresses and new phones each time, so neither the per-IP nor the per-phone limit is met.
    const phones = [m.phone, randomPhone(), randomPhone()];
    for (const [i, phone] of phones.entries()) {
      const r = await ask(phone, `10.40.${i}.1`, m.accessToken);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const victim = randomPhone();
    for (const [i, phone] of [victim, m.phone].entries()) {
      const r = await ask(phone, `10.41.${i}.1`, m.accessToken);
      expect([r.status, r.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
    }
    // Refused before anything was sent.
    expect((await outbox(victim)).status).toBe(404);
    // Another member, and a signup code (no member), are not affected.
    const other = await signupAndLogin(t);
    expect((await ask(randomPhone(), '10.42.0.1', other.accessToken)).status).toBe(200);
    expect((await ask(randomPhone(), '10.42.0.2')).status).toBe(200);
  });
});

describe('a code sent to another phone than the member’s own serves only a phone change', () => {
  type Moved = FixtureMember & { wallet: { id: number } };

  /**
   * The member asks for a code for a new phone and verifies it (what the modify screen does), asks for a
   * second one, then moves to that phone with the password. Returns the second, unused code.
   */
  async function moveToNewPhone(m: Moved): Promise<{ phone: string; spare: string }> {
    const phone = randomPhone();
    const code = await requestAndReadCode(t, phone, { token: m.token });
    const v = await t.call('POST', '/sms/verify', { token: m.token, body: { phone, code } });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    const spare = await requestAndReadCode(t, phone, { token: m.token });
    const put = await t.call('PUT', '/my', {
      token: m.token,
      body: {
        nickName: m.nickname,
        countryCode: '82',
        phoneE164: phone,
        bankName: 'KB국민은행',
        accountNo: '12345678901234',
        currentPassword: m.password,
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    m.phoneE164 = phone;
    return { phone, spare };
  }

  it('the phone change itself works: request, verify, PUT /my', async () => {
    const m = await trader(t, 'BTC');
    const { phone } = await moveToNewPhone(m);
    const my = await t.call<{ phoneE164: string }>('GET', '/my', { token: m.token });
    expect(my.body.returnData.phoneE164).toBe(phone);
  });

  it('its verification is no purchase phone check, even once the phone is the member’s', async () => {
    const op = await operator(t);
    const { id } = await btcMarket(t, op);
    const buyer = await trader(t, 'BTC');
    await moveToNewPhone(buyer);
    const order = () =>
      t.call('POST', '/buy-orders', {
        token: buyer.token,
        body: buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
      });
    const refused = await order();
    expect([refused.status, refused.body.returnMessage]).toEqual([422, 'PURCHASE_NOT_VERIFIED']);
    // The purchase check of the (now own) phone, asked for as such, lets the purchase through.
    const code = await requestAndReadCode(t, buyer.phoneE164, { token: buyer.token });
    const v = await t.call('POST', '/sms/verify', {
      token: buyer.token,
      body: { phone: buyer.phoneE164, code },
    });
    expect(v.status).toBe(200);
    expect((await order()).status).toBe(200);
  });

  it('its codes are no step-up, even once the phone is the member’s; nothing moves', async () => {
    const m = await trader(t, 'ETH');
    await fundMember(t, m.id, 'ETH', '2');
    const { spare } = await moveToNewPhone(m);
    const withdraw = (code: string) =>
      t.call('POST', '/transfer/request', {
        token: m.token,
        body: {
          fromWalletId: m.wallet.id,
          destType: 'EXTERNAL',
          amount: '0.5',
          destExternalAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          stepUp: { code },
        },
      });
    const refused = await withdraw(spare);
    expect([refused.status, refused.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
    expect(await balanceOf(t.app.deps.db, account.available(m.id, 'ETH'))).toBe(toUnits('2'));
    // A code asked for the member's own phone is a step-up.
    const own = await requestAndReadCode(t, m.phoneE164, { token: m.token });
    const done = await withdraw(own);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    await t.assertLedger();
  });
});
