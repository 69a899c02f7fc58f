import { toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../test/helpers.ts';
import { account, balanceOf } from '../ledger/index.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder, reverify } from '../modules/orders/test-kit.ts';
import { canonicalJson } from './idempotency.ts';

// DECISIONS §15 on both databases; the parallel cases need real connections (PostgreSQL only).
let t: TestApp;
let alice: FixtureMember;
let bob: FixtureMember;
let op: FixtureMember;
const wallets: Record<string, { id: number; address: string }> = {};
// A valid mainnet segwit address that is nobody's wallet (BIP-173 vector).
const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

beforeAll(async () => {
  t = await createTestApp({ STEP_UP_MAX_FAILURES: '1000' });
  alice = await createMember(t);
  bob = await createMember(t);
  op = await operator(t);
  for (const [name, m] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    for (const coin of ['BTC', 'ETH'] as const)
      wallets[`${name}${coin}`] = await createWalletFor(t, m.id, coin);
  }
  await fundMember(t, alice.id, 'ETH', '10');
  await fundMember(t, alice.id, 'BTC', '1');
  await fundMember(t, bob.id, 'ETH', '10');
});
afterAll(() => t.close());

interface Raw {
  status: number;
  body: string;
  replayed: boolean;
  json: { returnCode: number; returnMessage: string; returnData: Record<string, unknown> | null };
}

async function post(url: string, token: string, body: unknown, key?: string): Promise<Raw> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
  });
  return {
    status: res.statusCode,
    body: res.body,
    replayed: res.headers['idempotent-replayed'] === 'true',
    json: res.json(),
  };
}

const ethAvail = (memberId: number) => balanceOf(t.app.deps.db, account.available(memberId, 'ETH'));
// Every transfer carries its sender's step-up (DECISIONS §13); it is not part of the request hash.
const internalEth = (from: string, to: string, amount: string) => ({
  fromWalletId: wallets[from]!.id,
  destType: 'INTERNAL',
  amount,
  destInternalAddress: wallets[to]!.address,
  stepUp: { password: (from.startsWith('alice') ? alice : bob).password },
});
const count = async (table: 'transfers' | 'buy_orders' | 'ledger_entries') =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.deps.db)).rows[0]!
      .n,
  );

describe('Idempotency-Key (DECISIONS §15)', () => {
  it('answers a repeat with the first answer, byte for byte, and moves nothing again', async () => {
    const before = await ethAvail(alice.id);
    const transfers = await count('transfers');
    const first = await post(
      '/transfer/request',
      alice.token,
      internalEth('aliceETH', 'bobETH', '1'),
      'k-transfer-1',
    );
    expect(first.status).toBe(200);
    expect(first.replayed).toBe(false);
    const again = await post(
      '/transfer/request',
      alice.token,
      internalEth('aliceETH', 'bobETH', '1'),
      'k-transfer-1',
    );
    expect(again.status).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.replayed).toBe(true);
    expect(await ethAvail(alice.id)).toBe(before - toUnits('1'));
    expect(await count('transfers')).toBe(transfers + 2); // one WITHDRAW and its DEPOSIT, once
    await t.assertLedger();
  });

  it('without a key, two identical requests are two moves (the key is optional)', async () => {
    const before = await ethAvail(alice.id);
    for (let i = 0; i < 2; i++) {
      expect(
        (await post('/transfer/request', alice.token, internalEth('aliceETH', 'bobETH', '0.5'))).status,
      ).toBe(200);
    }
    expect(await ethAvail(alice.id)).toBe(before - toUnits('1'));
  });

  it('refuses the same key with another body or on another route: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const before = await ethAvail(alice.id);
    const first = await post(
      '/transfer/request',
      alice.token,
      internalEth('aliceETH', 'bobETH', '0.1'),
      'k-reused',
    );
    expect(first.status).toBe(200);
    const other = await post(
      '/transfer/request',
      alice.token,
      internalEth('aliceETH', 'bobETH', '0.2'),
      'k-reused',
    );
    expect(other.status).toBe(422);
    expect(other.json).toEqual({
      returnCode: 422,
      returnMessage: 'IDEMPOTENCY_KEY_REUSED',
      returnData: null,
    });
    const elsewhere = await post('/api/v1/sell-listings', alice.token, {}, 'k-reused');
    expect(elsewhere.status).toBe(400); // the body is checked first: nothing reaches the key
    const listing = {
      walletId: wallets.aliceETH!.id,
      minQty: '0.1',
      maxQty: '0.2',
      unitPriceKrw: 3_000_000,
      bankName: 'KB국민은행',
      accountNo: '123456789012',
      stepUp: { password: alice.password },
    };
    const onListing = await post('/api/v1/sell-listings', alice.token, listing, 'k-reused');
    expect(onListing.json.returnMessage).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ethAvail(alice.id)).toBe(before - toUnits('0.1'));
  });

  it('keeps keys per caller: another member with the same key gets their own move', async () => {
    const before = await ethAvail(bob.id);
    const a = await post(
      '/transfer/request',
      alice.token,
      internalEth('aliceETH', 'bobETH', '0.25'),
      'k-shared',
    );
    const b = await post(
      '/transfer/request',
      bob.token,
      internalEth('bobETH', 'aliceETH', '0.5'),
      'k-shared',
    );
    expect([a.status, b.status, b.replayed]).toEqual([200, 200, false]);
    expect(b.json.returnData).toMatchObject({ walletId: wallets.bobETH!.id, amount: '0.5' });
    expect(await ethAvail(bob.id)).toBe(before + toUnits('0.25') - toUnits('0.5'));
  });

  it('refuses a malformed key with 400 VALIDATION_FAILED before anything runs', async () => {
    const before = await ethAvail(alice.id);
    for (const key of ['', 'a'.repeat(65), 'has space', 'semi;colon', 'ключ']) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/transfer/request',
        payload: JSON.stringify(internalEth('aliceETH', 'bobETH', '0.01')),
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${alice.token}`,
          'idempotency-key': key,
        },
      });
      expect(r.statusCode, key).toBe(400);
      expect(r.json()).toMatchObject({
        returnMessage: 'VALIDATION_FAILED',
        returnData: { fields: { 'idempotency-key': 'INVALID_FORMAT' } },
      });
    }
    expect(
      (
        await post(
          '/transfer/request',
          alice.token,
          internalEth('aliceETH', 'bobETH', '0.01'),
          'a'.repeat(64),
        )
      ).status,
    ).toBe(200);
    expect(await ethAvail(alice.id)).toBe(before - toUnits('0.01'));
  });

  it('replays a business refusal (it changed nothing), but never a rate limit or a 5xx', async () => {
    const tooMuch = internalEth('aliceETH', 'bobETH', '1000');
    const first = await post('/transfer/request', alice.token, tooMuch, 'k-refused');
    expect(first.json.returnMessage).toBe('INSUFFICIENT_BALANCE');
    await fundMember(t, alice.id, 'ETH', '1000');
    const again = await post('/transfer/request', alice.token, tooMuch, 'k-refused');
    expect([again.status, again.body, again.replayed]).toEqual([422, first.body, true]);
  });

  it('leaves the step-up secret out of the request hash: another password is the same request', async () => {
    const body = (password: string) => ({
      fromWalletId: wallets.aliceBTC!.id,
      destType: 'EXTERNAL',
      amount: '0.001',
      destExternalAddress: EXTERNAL_BTC,
      stepUp: { password },
    });
    const first = await post('/transfer/request', alice.token, body(alice.password), 'k-stepup');
    expect(first.status).toBe(200);
    const again = await post('/transfer/request', alice.token, body('not-the-password'), 'k-stepup');
    expect([again.status, again.body]).toEqual([200, first.body]);
    // A refused secret is not stored: the same key with the right password then runs.
    const before = await balanceOf(t.app.deps.db, account.available(alice.id, 'BTC'));
    const wrong = await post('/transfer/request', alice.token, body('not-the-password'), 'k-stepup-2');
    expect(wrong.json.returnMessage).toBe('INVALID_CREDENTIALS');
    const right = await post('/transfer/request', alice.token, body(alice.password), 'k-stepup-2');
    expect([right.status, right.replayed]).toEqual([200, false]);
    expect(await balanceOf(t.app.deps.db, account.available(alice.id, 'BTC'))).toBe(
      before - toUnits('0.001'),
    );
    const stored = await sql<{ request_hash: string }>`select request_hash from idempotency_keys
      where caller_id = ${alice.id} and key = 'k-stepup'`.execute(t.app.deps.db);
    expect(stored.rows[0]?.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalJson(body(alice.password))).not.toContain(alice.password);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS while the first request runs, and lets a dead one be taken over', async () => {
    const body = internalEth('aliceETH', 'bobETH', '0.01');
    const first = await post('/transfer/request', alice.token, body, 'k-running');
    expect(first.status).toBe(200);
    // The state a request in flight leaves: the row claimed, no answer yet.
    await sql`update idempotency_keys set status = 'IN_PROGRESS', response_status = null, response_body = null
      where caller_id = ${alice.id} and key = 'k-running'`.execute(t.app.deps.db);
    const running = await post('/transfer/request', alice.token, body, 'k-running');
    expect(running.json).toEqual({
      returnCode: 409,
      returnMessage: 'IDEMPOTENCY_KEY_IN_PROGRESS',
      returnData: null,
    });
    // A claim older than IDEMPOTENCY_STALE_SEC belongs to a process that died: the retry runs.
    await sql`update idempotency_keys set created_at = now() - interval '2 minutes'
      where caller_id = ${alice.id} and key = 'k-running'`.execute(t.app.deps.db);
    const before = await ethAvail(alice.id);
    const taken = await post('/transfer/request', alice.token, body, 'k-running');
    expect([taken.status, taken.replayed]).toEqual([200, false]);
    expect(await ethAvail(alice.id)).toBe(before - toUnits('0.01'));
  });

  it('forgets a key after 24 h: its rows are deleted and the key runs again', async () => {
    const body = internalEth('aliceETH', 'bobETH', '0.02');
    expect((await post('/transfer/request', alice.token, body, 'k-old')).status).toBe(200);
    expect((await post('/transfer/request', alice.token, body, 'k-old')).replayed).toBe(true);
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
      where caller_id = ${alice.id} and key = 'k-old'`.execute(t.app.deps.db);
    const before = await ethAvail(alice.id);
    const again = await post('/transfer/request', alice.token, body, 'k-old');
    expect([again.status, again.replayed]).toEqual([200, false]);
    expect(await ethAvail(alice.id)).toBe(before - toUnits('0.02'));
  });

  it('covers the order actions and the operator calls: a replayed cancel answers the first answer', async () => {
    const { buyer, id } = await btcMarket(t, op);
    const order = await post(
      '/buy-orders',
      buyer.token,
      buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
      'k-order',
    );
    expect(order.status).toBe(200);
    await reverify(t, buyer);
    const replay = await post(
      '/buy-orders',
      buyer.token,
      buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
      'k-order',
    );
    expect([replay.body, replay.replayed]).toEqual([order.body, true]);
    const orderId = (order.json.returnData as { orderId: number }).orderId;
    const cancel = await post(`/buy-orders/${orderId}/cancel`, buyer.token, {}, 'k-cancel');
    expect(cancel.status).toBe(200);
    const cancelAgain = await post(`/buy-orders/${orderId}/cancel`, buyer.token, {}, 'k-cancel');
    expect([cancelAgain.status, cancelAgain.body]).toEqual([200, cancel.body]);
    // Without the key the state machine refuses the second cancel: the key is what makes a retry harmless.
    expect((await post(`/buy-orders/${orderId}/cancel`, buyer.token, {})).status).toBe(409);
    await t.assertLedger();
  });
  it('keeps only a success or the handler’s own 409/422: a 400, 401 or 404 leaves no row (DECISIONS §21)', async () => {
    const { buyer, id } = await btcMarket(t, op);
    const rowOf = async (key: string) =>
      (
        await sql<{ caller_id: number; status: string; response_status: number | null }>`
          select caller_id, status, response_status from idempotency_keys where key = ${key}`.execute(
          t.app.deps.db,
        )
      ).rows;
    const good = buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id);
    // The handler's 400: not kept, so the corrected request runs under the same key (not IDEMPOTENCY_KEY_REUSED).
    const wrongQty = await post('/buy-orders', buyer.token, { ...good, requestQty: '0.0201' }, 'k-21-qty');
    expect([wrongQty.status, wrongQty.json.returnMessage]).toEqual([400, 'QTY_MISMATCH']);
    expect(await rowOf('k-21-qty')).toEqual([]);
    const placed = await post('/buy-orders', buyer.token, good, 'k-21-qty');
    expect([placed.status, placed.replayed]).toEqual([200, false]);
    const orderId = (placed.json.returnData as { orderId: number }).orderId;

    // A 404 (an order that is not there, or not the caller's): not kept.
    const missing = await post('/buy-orders/99999999/cancel', buyer.token, {}, 'k-21-404');
    expect(missing.status).toBe(404);
    expect(await rowOf('k-21-404')).toEqual([]);
    // A 401 never reaches a key.
    const anon = await post(`/buy-orders/${orderId}/cancel`, 'not-a-token', {}, 'k-21-401');
    expect(anon.status).toBe(401);
    expect(await rowOf('k-21-401')).toEqual([]);

    // The success and the handler's own 409 are kept and answered again.
    const cancel = await post(`/buy-orders/${orderId}/cancel`, buyer.token, {}, 'k-21-404');
    expect([cancel.status, cancel.replayed]).toEqual([200, false]);
    const late = await post(`/buy-orders/${orderId}/cancel`, buyer.token, {}, 'k-21-409');
    expect(late.status).toBe(409);
    expect(await rowOf('k-21-409')).toEqual([{ caller_id: buyer.id, status: 'DONE', response_status: 409 }]);
    const lateAgain = await post(`/buy-orders/${orderId}/cancel`, buyer.token, {}, 'k-21-409');
    expect([lateAgain.status, lateAgain.body, lateAgain.replayed]).toEqual([409, late.body, true]);
  });
});

/** POST through `app` with a bearer token and an optional Idempotency-Key. */
async function postTo(app: TestApp['app'], url: string, token: string, key?: string): Promise<Raw> {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: '{}',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
  });
  return {
    status: res.statusCode,
    body: res.body,
    replayed: res.headers['idempotent-replayed'] === 'true',
    json: res.json(),
  };
}

describe('at most IDEMPOTENCY_MAX_PER_MEMBER_DAY keys per caller a day (DECISIONS §21)', () => {
  const CAP = 3;
  let t2: TestApp;
  let op2: FixtureMember;
  beforeAll(async () => {
    t2 = await createTestApp({ IDEMPOTENCY_MAX_PER_MEMBER_DAY: String(CAP) });
    op2 = await operator(t2);
  });
  afterAll(() => t2?.close());

  /** A buyer with one order already canceled: every further cancel is the handler's own 409 (a kept answer). */
  const canceledOrder = async () => {
    const { buyer, id } = await btcMarket(t2, op2);
    const placed = await placeOrder(t2, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    const orderId = (placed.body.returnData as { orderId: number }).orderId;
    expect((await postTo(t2.app, `/buy-orders/${orderId}/cancel`, buyer.token)).status).toBe(200);
    return { buyer, cancelUrl: `/buy-orders/${orderId}/cancel` };
  };
  const keysOf = async (callerId: number) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from idempotency_keys
          where caller_id = ${callerId}`.execute(t2.app.deps.db)
      ).rows[0]?.n,
    );

  it('refuses a new key beyond the cap with 429 RATE_LIMITED; kept keys still answer; a day later a new key runs', async () => {
    const { buyer, cancelUrl } = await canceledOrder();
    // Answers that are not kept do not count.
    for (let i = 0; i < CAP + 2; i++) {
      expect((await postTo(t2.app, '/buy-orders/99999999/cancel', buyer.token, `k-miss-${i}`)).status).toBe(
        404,
      );
    }
    for (let i = 0; i < CAP; i++) {
      expect((await postTo(t2.app, cancelUrl, buyer.token, `k-cap-${i}`)).status).toBe(409);
    }
    const over = await postTo(t2.app, cancelUrl, buyer.token, `k-cap-${CAP}`);
    expect(over.status).toBe(429);
    expect(over.json.returnMessage).toBe('RATE_LIMITED');
    const retryAfterSec = (over.json.returnData as { retryAfterSec: number }).retryAfterSec;
    expect(retryAfterSec).toBeGreaterThan(0);
    expect(retryAfterSec).toBeLessThanOrEqual(24 * 3600);
    expect(await keysOf(buyer.id)).toBe(CAP);
    // A kept key still answers its first answer, and a call without a key still runs.
    const replay = await postTo(t2.app, cancelUrl, buyer.token, 'k-cap-0');
    expect([replay.status, replay.replayed]).toEqual([409, true]);
    expect((await postTo(t2.app, cancelUrl, buyer.token)).status).toBe(409);
    // Another caller has their own allowance.
    const other = await canceledOrder();
    expect((await postTo(t2.app, other.cancelUrl, other.buyer.token, 'k-cap-0')).status).toBe(409);
    // Once the oldest key is older than 24 h, a new key runs.
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
      where caller_id = ${buyer.id} and key = 'k-cap-0'`.execute(t2.app.deps.db);
    const next = await postTo(t2.app, cancelUrl, buyer.token, `k-cap-${CAP}`);
    expect([next.status, next.replayed]).toEqual([409, false]);
    expect(await keysOf(buyer.id)).toBe(CAP);
  });

  it.runIf(onPostgres)(
    'twenty parallel new keys of one caller: exactly the cap are kept, the rest 429',
    async () => {
      const { buyer, cancelUrl } = await canceledOrder();
      const rs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => postTo(t2.app, cancelUrl, buyer.token, `k-par-cap-${i}`)),
      );
      const statuses = rs.map((r) => r.status);
      expect(statuses.filter((s) => s === 409)).toHaveLength(CAP);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - CAP);
      expect(await keysOf(buyer.id)).toBe(CAP);
    },
  );
});

describe.runIf(onPostgres)('Idempotency-Key under parallel requests (PostgreSQL)', () => {
  const outcome = (rs: Raw[]) => {
    const ok = rs.filter((r) => r.status === 200);
    const busy = rs.filter((r) => r.json.returnMessage === 'IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(ok.length + busy.length).toBe(rs.length);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body)).size).toBe(1); // every 200 is the same answer
    return ok[0]!;
  };

  it('ten parallel buy orders with one key make exactly one order', async () => {
    const { buyer, id } = await btcMarket(t, op);
    await reverify(t, buyer);
    const orders = await count('buy_orders');
    const body = buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id);
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => post('/buy-orders', buyer.token, body, 'k-par-order')),
    );
    outcome(rs);
    expect(await count('buy_orders')).toBe(orders + 1);
    const replay = await post('/buy-orders', buyer.token, body, 'k-par-order');
    expect(replay.body).toBe(outcome(rs).body);
    await t.assertLedger();
  });

  it('ten parallel external withdrawals with one key make one withdrawal and one ledger entry', async () => {
    const transfers = await count('transfers');
    const entries = await count('ledger_entries');
    const before = await balanceOf(t.app.deps.db, account.available(alice.id, 'BTC'));
    const body = {
      fromWalletId: wallets.aliceBTC!.id,
      destType: 'EXTERNAL',
      amount: '0.01',
      destExternalAddress: EXTERNAL_BTC,
      stepUp: { password: alice.password },
    };
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => post('/transfer/request', alice.token, body, 'k-par-withdraw')),
    );
    outcome(rs);
    expect(await count('transfers')).toBe(transfers + 1);
    expect(await count('ledger_entries')).toBe(entries + 1);
    expect(await balanceOf(t.app.deps.db, account.available(alice.id, 'BTC'))).toBe(before - toUnits('0.01'));
    await t.assertLedger();
  });

  it('ten parallel operator completions of one withdrawal with one key: one answer, one ledger entry', async () => {
    const w = await post(
      '/transfer/request',
      alice.token,
      {
        fromWalletId: wallets.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.002',
        destExternalAddress: EXTERNAL_BTC,
        stepUp: { password: alice.password },
      },
      'k-par-w2',
    );
    const id = (w.json.returnData as { transferId: number }).transferId;
    const entries = await count('ledger_entries');
    const rs = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`/ops/api/v1/withdrawals/${id}/complete`, op.token, { txid: 'tx-par-1' }, 'k-par-complete'),
      ),
    );
    outcome(rs);
    expect(await count('ledger_entries')).toBe(entries + 1);
    await t.assertLedger();
  });

  it('the same key of two callers in parallel: both moves happen', async () => {
    const a0 = await ethAvail(alice.id);
    const b0 = await ethAvail(bob.id);
    const rs = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        post('/transfer/request', alice.token, internalEth('aliceETH', 'bobETH', '1'), 'k-par-both'),
      ),
      ...Array.from({ length: 5 }, () =>
        post('/transfer/request', bob.token, internalEth('bobETH', 'aliceETH', '2'), 'k-par-both'),
      ),
    ]);
    outcome(rs.slice(0, 5));
    outcome(rs.slice(5));
    expect(await ethAvail(alice.id)).toBe(a0 - toUnits('1') + toUnits('2'));
    expect(await ethAvail(bob.id)).toBe(b0 + toUnits('1') - toUnits('2'));
  });
});
