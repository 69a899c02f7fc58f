import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, signupAndLogin } from '../identity/test-kit.ts';
import { BTC_PRICE, buyBody, openListing, operator, placeOrder, trader } from '../orders/test-kit.ts';
import { maskIp } from './index.ts';
import { deviceOf } from './service.ts';

/*
 * DECISIONS §19 "Records": the login history (GET /api/v1/my/logins) and closing a membership
 * (POST /api/v1/my/close). The retention purge has its own file (retention.test.ts).
 */

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp({ ...RELAXED_LIMITS, LOGIN_MAX_ATTEMPTS: '3' });
  op = await operator(t);
});
afterAll(() => t.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

function login(loginId: string, password: string, ip: string, ua = WINDOWS) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { loginId, password },
    headers: { 'user-agent': ua },
    remoteAddress: ip,
  });
}

type Logins = { items: { at: string; ip: string; device: unknown; result: string }[]; days: number };
const logins = (token: string) => t.call<Logins>('GET', '/api/v1/my/logins', { token });
const close = (token: string, body: unknown) => t.call('POST', '/api/v1/my/close', { token, body });

describe('the login history', () => {
  it('masks the last part of an address: IPv4 a.b.c.*, IPv6 the first three groups, mapped IPv4 as IPv4', () => {
    expect(maskIp('203.0.113.77')).toBe('203.0.113.*');
    expect(maskIp('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3:*');
    expect(maskIp('::ffff:198.51.100.9')).toBe('198.51.100.*');
    expect(maskIp('garbage')).toBe('*');
  });

  it('reads the device from the user agent with a parser', () => {
    expect(deviceOf(IPHONE)).toEqual({ browser: 'Safari', os: 'iOS', type: 'mobile' });
    expect(deviceOf(WINDOWS)).toEqual({ browser: 'Chrome', os: 'Windows', type: 'desktop' });
    expect(deviceOf(null)).toEqual({ browser: null, os: null, type: 'other' });
  });

  it('records every attempt on the id: OK, BAD_PASSWORD, LOCKED once a minute per address; newest first, own only', async () => {
    const m = await signupAndLogin(t);
    const other = await signupAndLogin(t);
    expect((await login(m.loginId, 'wrong-pass1', '198.51.100.20', IPHONE)).statusCode).toBe(400);
    expect((await login(m.loginId, m.password, '2001:db8:85a3::1', IPHONE)).statusCode).toBe(200);
    // LOGIN_MAX_ATTEMPTS 3 per id + address: the 4th and 5th are refused and recorded once.
    for (let i = 0; i < 3; i++) await login(m.loginId, 'wrong-pass1', '203.0.113.5');
    expect((await login(m.loginId, 'wrong-pass1', '203.0.113.5')).statusCode).toBe(429);
    expect((await login(m.loginId, 'wrong-pass1', '203.0.113.5')).statusCode).toBe(429);
    const r = await logins(m.accessToken);
    expect(r.status).toBe(200);
    expect(r.body.returnData.days).toBe(90);
    const items = r.body.returnData.items;
    expect(items.map((i) => [i.result, i.ip])).toEqual([
      ['LOCKED', '203.0.113.*'],
      ['BAD_PASSWORD', '203.0.113.*'],
      ['BAD_PASSWORD', '203.0.113.*'],
      ['BAD_PASSWORD', '203.0.113.*'],
      ['OK', '2001:db8:85a3:*'],
      ['BAD_PASSWORD', '198.51.100.*'],
      // the sign-up's own login (inject's default address)
      ['OK', '127.0.0.*'],
    ]);
    expect(items[4]?.device).toEqual({ browser: 'Safari', os: 'iOS', type: 'mobile' });
    // The other member's history has only their own sign-up login.
    expect((await logins(other.accessToken)).body.returnData.items).toHaveLength(1);
    // An unknown id leaves no row anywhere.
    const before = await t.app.deps.db.selectFrom('login_attempts').select('id').execute();
    await login('nosuchid1', 'wrong-pass1', '203.0.113.9');
    expect(await t.app.deps.db.selectFrom('login_attempts').select('id').execute()).toHaveLength(
      before.length,
    );
    expect((await t.call('GET', '/api/v1/my/logins')).status).toBe(401);
  });

  it('shows 90 days: an attempt of 91 days ago is not answered', async () => {
    const m = await createMember(t);
    await t.app.deps.db
      .insertInto('login_attempts')
      .values([
        {
          member_id: m.id,
          ip: '192.0.2.1',
          user_agent: null,
          result: 'OK',
          at: sql<Date>`now() - interval '91 days'`,
        },
        {
          member_id: m.id,
          ip: '192.0.2.2',
          user_agent: null,
          result: 'OK',
          at: sql<Date>`now() - interval '89 days'`,
        },
      ])
      .execute();
    expect((await logins(m.token)).body.returnData.items.map((i) => i.ip)).toEqual(['192.0.2.*']);
  });

  it('records SUSPENDED after the right password', async () => {
    const m = await signupAndLogin(t);
    const id = (
      await t.app.deps.db
        .selectFrom('members')
        .select('id')
        .where('login_id', '=', m.loginId)
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (
        await t.call('POST', `/ops/api/v1/members/${id}/suspend`, {
          token: op.token,
          body: { reason: 'fraud check' },
        })
      ).status,
    ).toBe(200);
    expect((await login(m.loginId, m.password, '192.0.2.50')).json().returnMessage).toBe('MEMBER_SUSPENDED');
    const rows = await t.app.deps.db
      .selectFrom('login_attempts')
      .select('result')
      .where('member_id', '=', id)
      .orderBy('id', 'desc')
      .execute();
    expect(rows[0]?.result).toBe('SUSPENDED');
  });
});

describe('closing a membership', () => {
  it('asks for the password: absent 400 CURRENT_PASSWORD_REQUIRED, wrong 400 INVALID_CREDENTIALS, 5 wrong then 429', async () => {
    const m = await createMember(t);
    expect((await close(m.token, {})).body.returnMessage).toBe('CURRENT_PASSWORD_REQUIRED');
    expect((await close(m.token, { currentPassword: '' })).body.returnMessage).toBe(
      'CURRENT_PASSWORD_REQUIRED',
    );
    for (let i = 0; i < 5; i++)
      expect((await close(m.token, { currentPassword: 'nope-nope1' })).body.returnMessage).toBe(
        'INVALID_CREDENTIALS',
      );
    expect((await close(m.token, { currentPassword: m.password })).status).toBe(429);
    expect((await t.call('GET', '/my', { token: m.token })).status).toBe(200);
    expect((await t.call('POST', '/api/v1/my/close', { body: { currentPassword: 'x' } })).status).toBe(401);
  });

  it('refuses while anything is left: a balance, an active listing, a live order (409 ACCOUNT_NOT_EMPTY with what)', async () => {
    const rich = await createMember(t);
    await fundMember(t, rich.id, 'ETH', '0.5');
    const r = await close(rich.token, { currentPassword: rich.password });
    expect([r.status, r.body.returnMessage, r.body.returnData]).toEqual([
      409,
      'ACCOUNT_NOT_EMPTY',
      {
        liveOrders: 0,
        activeListings: 0,
        pendingTransfers: 0,
        balances: [{ coinCode: 'ETH', kind: 'available', amount: '0.50000000' }],
      },
    ]);
    const seller = await trader(t, 'BTC', '1');
    const listing = await openListing(t, seller, op, {
      minQty: '0.01',
      maxQty: '1',
      unitPriceKrw: BTC_PRICE,
    });
    const buyer = await trader(t, 'BTC');
    expect((await placeOrder(t, buyer, buyBody(listing, 1_000_000, BTC_PRICE, buyer.wallet.id))).status).toBe(
      200,
    );
    const s = await close(seller.token, { currentPassword: seller.password });
    expect(s.body.returnData).toMatchObject({ liveOrders: 1, activeListings: 1 });
    const b = await close(buyer.token, { currentPassword: buyer.password });
    expect([b.status, b.body.returnData]).toEqual([
      409,
      { liveOrders: 1, activeListings: 0, pendingTransfers: 0, balances: [] },
    ]);
    const still = await t.app.deps.db
      .selectFrom('members')
      .select('status')
      .where('id', 'in', [rich.id, seller.id, buyer.id])
      .execute();
    expect(still.map((x) => x.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
  });

  it('closes an empty membership: sessions end, sign-in says MEMBER_CLOSED only to the right password, the phone is free again', async () => {
    const m = await signupAndLogin(t);
    const r = await close(m.accessToken, { currentPassword: m.password });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const out = r.body.returnData as { closedAt: string; retentionYears: number; keptUntil: string };
    expect(out.retentionYears).toBe(5);
    expect(new Date(out.keptUntil).getUTCFullYear() - new Date(out.closedAt).getUTCFullYear()).toBe(5);
    expect((await t.call('GET', '/my', { token: m.accessToken })).status).toBe(401);
    const refreshed = await t.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: m.refreshToken },
    });
    expect(refreshed.body.returnMessage).toBe('REFRESH_TOKEN_INVALID');
    expect((await login(m.loginId, 'wrong-pass1', '192.0.2.60')).json().returnMessage).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await login(m.loginId, m.password, '192.0.2.60')).json().returnMessage).toBe('MEMBER_CLOSED');
    // Login id and nickname stay taken; the phone may open a new membership.
    expect(
      (
        await t.call<{ available: boolean }>('POST', '/api/v1/members/check-id', {
          body: { loginId: m.loginId },
        })
      ).body.returnData.available,
    ).toBe(false);
    const again = await signupAndLogin(t, { phone: m.phone });
    expect(again.accessToken).toBeTruthy();
    // A closed membership cannot be suspended (and so never reopened by an unsuspend).
    const row = await t.app.deps.db
      .selectFrom('members')
      .select(['id', 'status', 'closed_at'])
      .where('login_id', '=', m.loginId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('CLOSED');
    const suspend = await t.call('POST', `/ops/api/v1/members/${row.id}/suspend`, {
      token: op.token,
      body: { reason: 'late report' },
    });
    expect(suspend.body.returnMessage).toBe('INVALID_STATE');
  });

  it("disables the closed member's wallets: an internal transfer to one is refused (404 WALLET_NOT_FOUND)", async () => {
    const closing = await trader(t, 'ETH');
    const sender = await trader(t, 'ETH', '1');
    expect((await close(closing.token, { currentPassword: closing.password })).status).toBe(200);
    const r = await t.call('POST', '/transfer/request', {
      token: sender.token,
      body: {
        fromWalletId: sender.wallet.id,
        destType: 'INTERNAL',
        amount: '0.1',
        destInternalAddress: closing.wallet.address,
        stepUp: { password: sender.password },
      },
    });
    expect([r.status, r.body.returnMessage]).toEqual([404, 'WALLET_NOT_FOUND']);
    await t.assertLedger();
  });

  it('an operator closes nothing here (403)', async () => {
    const o = await operator(t);
    expect((await close(o.token, { currentPassword: o.password })).status).toBe(403);
  });

  it.skipIf(!onPostgres)('closing races a purchase of the same member: exactly one wins', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const seller = await trader(t, 'BTC', '1');
      const listing = await openListing(t, seller, op, {
        minQty: '0.01',
        maxQty: '1',
        unitPriceKrw: BTC_PRICE,
      });
      const buyer = await trader(t, 'BTC');
      const [closed, bought] = await Promise.all([
        close(buyer.token, { currentPassword: buyer.password }),
        placeOrder(t, buyer, buyBody(listing, 1_000_000, BTC_PRICE, buyer.wallet.id)),
      ]);
      const orders = await t.app.deps.db
        .selectFrom('buy_orders')
        .select('id')
        .where('buyer_id', '=', buyer.id)
        .execute();
      const status = (
        await t.app.deps.db
          .selectFrom('members')
          .select('status')
          .where('id', '=', buyer.id)
          .executeTakeFirstOrThrow()
      ).status;
      if (closed.status === 200) {
        // The purchase lost: refused under the buyer's row lock (401, the member is CLOSED), or, when the close
        // had committed before the purchase read the buyer's wallet, at that read (404, the wallet is disabled).
        expect([401, 404]).toContain(bought.status);
        if (bought.status === 404) expect(bought.body.returnMessage).toBe('WALLET_NOT_FOUND');
        expect([orders.length, status]).toEqual([0, 'CLOSED']);
      } else {
        expect([closed.status, closed.body.returnMessage, bought.status]).toEqual([
          409,
          'ACCOUNT_NOT_EMPTY',
          200,
        ]);
        expect([orders.length, status]).toEqual([1, 'ACTIVE']);
      }
      outcomes.add(`${closed.status}/${bought.status}`);
    }
    await t.assertLedger();
  });
});
