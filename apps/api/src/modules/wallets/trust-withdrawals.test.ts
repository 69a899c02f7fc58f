import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, PRODUCTION_TRUST, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, placeOrder } from '../orders/test-kit.ts';
import { holdView, releaseTime } from './holds.ts';

// DECISIONS §19: withdrawal holds and the Travel Rule on external withdrawals, with production's settings.
// Static prices: BTC 140,000,000 won, so 0.01 BTC = 1,400,000 won (Travel Rule) and 0.001 BTC = 140,000.
let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp({ ...PRODUCTION_TRUST, STEP_UP_MAX_FAILURES: '1000' });
  op = await createMember(t, { role: 'OPERATOR' });
});
afterAll(() => t.close());

const OUTSIDE = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const SELF_HOSTED = { name: 'Hong Gildong', kind: 'SELF_HOSTED' };

interface WalletView {
  coinCode: string;
  balance: string;
  withdrawableBalance: string;
  heldUntil: string | null;
}

async function member(ageDays = 0) {
  const m = await createMember(t);
  const w = await createWalletFor(t, m.id, 'BTC');
  if (ageDays > 0) {
    await t.app.deps.db
      .updateTable('members')
      .set({ created_at: new Date(Date.now() - ageDays * 86_400_000) })
      .where('id', '=', m.id)
      .execute();
  }
  return { ...m, w };
}
type M = Awaited<ReturnType<typeof member>>;

/** A listing's remaining quantity as stored. */
const remaining = async (id: number) =>
  String(
    (
      await t.app.deps.db
        .selectFrom('sell_listings')
        .select('remaining_qty')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).remaining_qty,
  );

const send = (from: M, to: M, amount: string) =>
  t.call('POST', '/transfer/request', {
    token: from.token,
    body: {
      fromWalletId: from.w.id,
      destType: 'INTERNAL',
      destInternalAddress: to.w.address,
      amount,
      stepUp: { password: from.password },
    },
  });
const withdraw = (m: M, amount: string, beneficiary: unknown = SELF_HOSTED) =>
  t.call<{ until: string; heldAmount: string; minKrw: number; transferId: number }>(
    'POST',
    '/transfer/request',
    {
      token: m.token,
      body: {
        fromWalletId: m.w.id,
        destType: 'EXTERNAL',
        destExternalAddress: OUTSIDE,
        amount,
        stepUp: { password: m.password },
        ...(beneficiary === null ? {} : { beneficiary }),
      },
    },
  );
const walletOf = async (m: M) =>
  (await t.call<WalletView[]>('GET', '/api/v1/wallets', { token: m.token })).body.returnData.find(
    (x) => x.coinCode === 'BTC',
  ) as WalletView;
/** Moves the member's received rows back in time, as if they had arrived `hours` ago. */
const age = (m: M, hours: number) =>
  t.app.deps.db
    .updateTable('transfers')
    .set({ completed_at: new Date(Date.now() - hours * 3_600_000) })
    .where('member_id', '=', m.id)
    .where('type', '=', 'DEPOSIT')
    .execute();

describe('withdrawal holds (DECISIONS §19)', () => {
  it('holds coins received by internal transfer for 72 h in the first 30 days; the wallet view says how much and until when', async () => {
    const alice = await member();
    const bob = await member();
    await fundMember(t, alice.id, 'BTC', '1');
    await fundMember(t, bob.id, 'BTC', '0.5');
    const before = Date.now();
    expect((await send(alice, bob, '0.2')).status).toBe(200);
    const v = await walletOf(bob);
    expect(v).toMatchObject({ balance: '0.7', withdrawableBalance: '0.5' });
    const until = Date.parse(v.heldUntil ?? '');
    expect(until - before).toBeGreaterThanOrEqual(259_200_000 - 5_000);
    expect(until - before).toBeLessThanOrEqual(259_200_000 + 60_000);
    const held = await withdraw(bob, '0.6');
    expect(held.status).toBe(422);
    expect(held.body.returnMessage).toBe('WITHDRAWAL_HELD');
    expect(held.body.returnData).toMatchObject({ heldAmount: '0.2', until: v.heldUntil });
    // What is not held leaves at once; alice's own funded coins were never held.
    expect((await withdraw(bob, '0.5')).status).toBe(200);
    expect((await walletOf(alice)).withdrawableBalance).toBe('0.8');
    // Internal transfers of held coins are not external withdrawals: allowed.
    expect((await send(bob, alice, '0.1')).status).toBe(200);
    await t.assertLedger();
  });

  it('a member past 30 days waits 24 h; after the hold the coins leave', async () => {
    const alice = await member(400);
    const old = await member(60);
    await fundMember(t, alice.id, 'BTC', '1');
    await send(alice, old, '0.3');
    const v = await walletOf(old);
    expect(Date.parse(v.heldUntil ?? '') - Date.now()).toBeLessThanOrEqual(86_400_000 + 5_000);
    await age(old, 23);
    expect((await withdraw(old, '0.3')).body.returnMessage).toBe('WITHDRAWAL_HELD');
    await age(old, 25);
    expect(await walletOf(old)).toMatchObject({ withdrawableBalance: '0.3', heldUntil: null });
    expect((await withdraw(old, '0.3')).status).toBe(200);
  });

  it('holds coins bought on the market (the buyer side of a completed order)', async () => {
    const { seller, buyer, id } = await btcMarket(t, op);
    const order = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(order.status).toBe(200);
    const done = await t.call('POST', `/buy-orders/${order.body.returnData.orderId}/complete`, {
      token: seller.token,
      body: { txid: 'deposit seen 10:30', stepUp: { password: seller.password } },
    });
    expect(done.status).toBe(200);
    const w = (await t.call<WalletView[]>('GET', '/api/v1/wallets', { token: buyer.token })).body
      .returnData[0];
    expect(w).toMatchObject({ balance: '0.02', withdrawableBalance: '0' });
    const r = await t.call('POST', '/transfer/request', {
      token: buyer.token,
      body: {
        fromWalletId: buyer.wallet.id,
        destType: 'EXTERNAL',
        destExternalAddress: OUTSIDE,
        amount: '0.02',
        stepUp: { password: buyer.password },
        beneficiary: SELF_HOSTED,
      },
    });
    expect(r.body).toMatchObject({ returnMessage: 'WITHDRAWAL_HELD', returnData: { heldAmount: '0.02' } });
  });

  it('refuses a purchase delivered straight to an outside address while purchases are held; nothing is reserved', async () => {
    const { buyer, id } = await btcMarket(t, op);
    const before = await remaining(id);
    const body = {
      ...buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
      destType: 'EXTERNAL',
      destAddress: OUTSIDE,
    };
    const startedAt = Date.now();
    const r = await placeOrder<{ until: string; heldAmount: string }>(t, buyer, body);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ returnMessage: 'WITHDRAWAL_HELD', returnData: { heldAmount: '0.02' } });
    // a new member: 72 h (WITHDRAW_HOLD_NEW_SEC) from now
    const until = Date.parse(r.body.returnData.until);
    expect(until).toBeGreaterThanOrEqual(startedAt + 259_200_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 259_200_000);
    expect(await remaining(id)).toBe(before);
    // delivered to the buyer's own wallet, the same purchase is taken
    expect((await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id))).status).toBe(200);
  });

  it('GET /api/v1/kyc says when coins bought now could leave (purchaseHeldUntil): 72 h when new, 24 h after 30 days', async () => {
    const heldUntil = async (m: { token: string }) =>
      (await t.call<{ purchaseHeldUntil: string | null }>('GET', '/api/v1/kyc', { token: m.token })).body
        .returnData.purchaseHeldUntil;
    const { buyer, id } = await btcMarket(t, op);
    const before = Date.now();
    const shown = Date.parse((await heldUntil(buyer)) ?? '');
    expect(shown).toBeGreaterThanOrEqual(before + 259_200_000 - 1_000);
    expect(shown).toBeLessThanOrEqual(Date.now() + 259_200_000);
    // the screen's time and the refusal's agree (both now + the buyer's hold)
    const r = await placeOrder<{ until: string }>(t, buyer, {
      ...buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
      destType: 'EXTERNAL',
      destAddress: OUTSIDE,
    });
    expect(r.body.returnMessage).toBe('WITHDRAWAL_HELD');
    expect(Math.abs(Date.parse(r.body.returnData.until) - shown)).toBeLessThan(60_000);
    const old = await member(60);
    const oldShown = Date.parse((await heldUntil(old)) ?? '');
    expect(oldShown - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(oldShown - Date.now()).toBeLessThanOrEqual(86_400_000);
  });

  it.runIf(onPostgres)(
    'parallel withdrawals: exactly one takes the free part, the rest are held',
    async () => {
      const alice = await member();
      const bob = await member();
      await fundMember(t, alice.id, 'BTC', '1');
      await fundMember(t, bob.id, 'BTC', '0.5');
      await send(alice, bob, '0.2');
      const answers = await Promise.all(Array.from({ length: 8 }, () => withdraw(bob, '0.3')));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.body.returnMessage === 'WITHDRAWAL_HELD')).toHaveLength(7);
      expect(await walletOf(bob)).toMatchObject({ balance: '0.4', withdrawableBalance: '0.2' });
      await t.assertLedger();
    },
  );

  it('releaseTime and holdView: exact units, the earliest time the amount is free', () => {
    const at = (h: number) => new Date(Date.UTC(2026, 10, 27, h));
    const holds = [
      { units: 20_000_000n, until: at(10) },
      { units: 10_000_000n, until: at(5) },
    ];
    expect(releaseTime(50_000_000n, holds, 20_000_000n)).toBeNull();
    expect(releaseTime(50_000_000n, holds, 30_000_000n)).toEqual(at(5));
    expect(releaseTime(50_000_000n, holds, 40_000_000n)).toEqual(at(10));
    expect(releaseTime(50_000_000n, holds, 60_000_000n)).toBeNull();
    expect(holdView(50_000_000n, holds)).toEqual({
      withdrawableBalance: '0.2',
      heldUntil: at(10).toISOString(),
    });
    expect(holdView(10_000_000n, holds)).toEqual({
      withdrawableBalance: '0',
      heldUntil: at(10).toISOString(),
    });
    expect(holdView(10_000_000n, [])).toEqual({ withdrawableBalance: '0.1', heldUntil: null });
  });
});

describe('Travel Rule (DECISIONS §19)', () => {
  it('asks for the beneficiary from 1,000,000 won of worth, and not below', async () => {
    const m = await member();
    await fundMember(t, m.id, 'BTC', '1');
    expect((await withdraw(m, '0.001', null)).status).toBe(200);
    const r = await withdraw(m, '0.01', null);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      returnMessage: 'TRAVEL_RULE_INFO_REQUIRED',
      returnData: { minKrw: 1_000_000 },
    });
    const q = await t.call<{ required: boolean; valueKrw: number }>(
      'GET',
      '/api/v1/travel-rule/quote?coinCode=BTC&amount=0.01',
      {
        token: m.token,
      },
    );
    expect(q.body.returnData).toMatchObject({ required: true, valueKrw: 1_400_000, minKrw: 1_000_000 });
  });

  it('stores originator (the verified name) and beneficiary with the withdrawal; operators see both', async () => {
    const m = await member();
    await fundMember(t, m.id, 'BTC', '1');
    const r = await withdraw(m, '0.01', { name: ' Kim   Minsu ', kind: 'VASP', vaspName: 'Upbit' });
    expect(r.status).toBe(200);
    const q = await t.call<{ list: { withdrawalId: number; travelRule: unknown }[] }>(
      'GET',
      '/ops/api/v1/withdrawals?status=PENDING&size=50',
      { token: op.token },
    );
    const row = q.body.returnData.list.find((x) => x.withdrawalId === r.body.returnData.transferId);
    expect(row?.travelRule).toEqual({
      originatorName: m.name,
      beneficiaryName: 'Kim Minsu',
      beneficiaryKind: 'VASP',
      vaspName: 'Upbit',
      valueKrw: 1_400_000,
      provider: 'console',
      providerRef: `console:${r.body.returnData.transferId}`,
    });
  });

  it('refuses a bad beneficiary with a field code, and nothing moves', async () => {
    const m = await member();
    await fundMember(t, m.id, 'BTC', '1');
    const bad: unknown[] = [
      { name: 'Kim\u0007Minsu', kind: 'SELF_HOSTED' },
      { name: '\u202eKim', kind: 'SELF_HOSTED' },
      { name: 'R2D2', kind: 'SELF_HOSTED' },
      { name: '   ', kind: 'SELF_HOSTED' },
      { name: 'Kim', kind: 'VASP' },
      { name: 'Kim', kind: 'EXCHANGE' },
      { name: 'K'.repeat(101), kind: 'SELF_HOSTED' },
      'Kim',
    ];
    for (const b of bad) {
      const r = await withdraw(m, '0.01', b);
      expect([JSON.stringify(b), r.status, r.body.returnMessage]).toEqual([
        JSON.stringify(b),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    expect((await walletOf(m)).balance).toBe('1');
  });
});
