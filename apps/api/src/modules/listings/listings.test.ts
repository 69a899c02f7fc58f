import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, FIXTURE_PASSWORD, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { requestAndReadCode } from '../identity/test-kit.ts';
import { available, escrow, listVia, openListing, operator, trader } from '../orders/test-kit.ts';

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp();
  op = await operator(t);
});
afterAll(() => t.close());

const terms = { minQty: '0.1', maxQty: '1.5', unitPriceKrw: 100_000_000 };
const listingBody = (walletId: number, over: Record<string, unknown> = {}) => ({
  walletId,
  ...terms,
  bankName: '신한은행',
  accountNo: '110123456789',
  stepUp: { password: FIXTURE_PASSWORD },
  ...over,
});

describe('sell listings', () => {
  it('creates a PENDING_REVIEW listing, moving maxQty available -> escrow, with the SPEC §3 fields', async () => {
    const s = await trader(t, 'BTC', '2', 'Kim Cheolsu');
    const r = await t.call<Record<string, unknown>>('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: listingBody(s.wallet.id),
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({
      status: 'PENDING_REVIEW',
      coinCode: 'BTC',
      minQty: '0.1',
      maxQty: '1.5',
      remainingQty: '1.5',
      unitPriceKrw: 100_000_000,
      address: s.wallet.address,
      bankName: '신한은행',
      accountNo: '110123456789',
      sellerLoginId: s.loginId,
      accountHolder: 'Kim Cheolsu',
      sellerCountry: '82',
      sellerPhone: s.phoneE164,
    });
    expect(typeof r.body.returnData.createdAt).toBe('string');
    expect(await available(t, s.id, 'BTC')).toBe(50_000_000n);
    expect(await escrow(t, s.id, 'BTC')).toBe(150_000_000n);
    // not in the public list before approval
    const list = await t.call<{ list: { listingId: number }[] }>('GET', '/api/v1/sell-listings');
    expect(list.body.returnData.list.map((l) => l.listingId)).not.toContain(r.body.returnData.listingId);
    await t.assertLedger();
  });

  it('refuses each SPEC §5 "Sell" rule with its stable code and writes nothing', async () => {
    const s = await trader(t, 'ETH', '10');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ minQty: '2', maxQty: '1' }, 'minQty', 'MIN_ABOVE_MAX'],
      [{ minQty: '0.00001' }, 'minQty', 'AMOUNT_DECIMALS'],
      [{ maxQty: '0' }, 'maxQty', 'AMOUNT_NOT_POSITIVE'],
      [{ maxQty: '1e3' }, 'maxQty', 'AMOUNT_INVALID'],
      [{ maxQty: -1 }, 'maxQty', 'REQUIRED'],
      [{ unitPriceKrw: 1000.5 }, 'unitPriceKrw', 'PRICE_INTEGER'],
      [{ unitPriceKrw: 0 }, 'unitPriceKrw', 'AMOUNT_NOT_POSITIVE'],
      // 1경 won: beyond the 100억 listing total, a field error rather than an overflow
      [{ maxQty: '100000000', unitPriceKrw: 100_000_000 }, 'maxQty', 'LISTING_TOTAL_TOO_HIGH'],
      [{ maxQty: '100.0001', unitPriceKrw: 100_000_000 }, 'maxQty', 'LISTING_TOTAL_TOO_HIGH'],
      [{ accountNo: '110-123-45a' }, 'accountNo', 'ACCOUNT_NO_DIGITS'],
      // each bank's account numbers have their own length: 카카오뱅크 13 digits, 신한은행 11-12
      [{ bankName: '카카오뱅크', accountNo: '12' }, 'accountNo', 'ACCOUNT_NO_LENGTH'],
      [{ accountNo: '110-123' }, 'accountNo', 'ACCOUNT_NO_LENGTH'],
      [{ bankName: '  ' }, 'bankName', 'BANK_REQUIRED'],
      [{ accountNo: undefined }, 'accountNo', 'BANK_REQUIRED'],
    ];
    for (const [over, field, code] of cases) {
      const r = await t.call<{ fields: Record<string, string> }>('POST', '/api/v1/sell-listings', {
        token: s.token,
        body: listingBody(s.wallet.id, over),
      });
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.returnMessage).toBe('VALIDATION_FAILED');
      expect(r.body.returnData.fields[field], JSON.stringify(r.body)).toBe(code);
    }
    expect(await escrow(t, s.id, 'ETH')).toBe(0n);
    const mine = await t.call<{ totalCount: number }>('GET', '/my/sell', { token: s.token });
    expect(mine.body.returnData.totalCount).toBe(0);
  });

  it('needs the caller own ACTIVE wallet, enough balance, one active listing per coin', async () => {
    const s = await trader(t, 'XRP', '100');
    const other = await trader(t, 'XRP', '100');
    const notMine = await t.call('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: listingBody(other.wallet.id, { minQty: '1', maxQty: '10', unitPriceKrw: 900 }),
    });
    expect([notMine.status, notMine.body.returnMessage]).toEqual([404, 'WALLET_NOT_FOUND']);
    await t.app.deps.db
      .updateTable('wallets')
      .set({ status: 'DISABLED' })
      .where('id', '=', other.wallet.id)
      .execute();
    const disabled = await t.call('POST', '/api/v1/sell-listings', {
      token: other.token,
      body: listingBody(other.wallet.id, { minQty: '1', maxQty: '10', unitPriceKrw: 900 }),
    });
    expect([disabled.status, disabled.body.returnMessage]).toEqual([404, 'WALLET_NOT_FOUND']);
    const tooMuch = await t.call('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: listingBody(s.wallet.id, { minQty: '1', maxQty: '100.0001', unitPriceKrw: 900 }),
    });
    expect([tooMuch.status, tooMuch.body.returnMessage]).toEqual([422, 'INSUFFICIENT_BALANCE']);
    await listVia(t, s, { minQty: '1', maxQty: '40', unitPriceKrw: 900 });
    const dup = await t.call('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: listingBody(s.wallet.id, { minQty: '1', maxQty: '40', unitPriceKrw: 900 }),
    });
    expect([dup.status, dup.body.returnMessage]).toEqual([409, 'DUPLICATE_SELLER']);
    expect(await escrow(t, s.id, 'XRP')).toBe(4_000_000_000n);
    expect(await available(t, s.id, 'XRP')).toBe(6_000_000_000n);
    await t.assertLedger();
  });

  it('owner close returns the escrow; a closed listing frees the coin for a new listing', async () => {
    const s = await trader(t, 'TRX', '1000');
    const id = await openListing(t, s, op, { minQty: '10', maxQty: '500', unitPriceKrw: 200 });
    const stranger = await createMember(t);
    const foreign = await t.call('POST', `/api/v1/sell-listings/${id}/close`, { token: stranger.token });
    expect([foreign.status, foreign.body.returnMessage]).toEqual([404, 'LISTING_NOT_FOUND']);
    expect(await escrow(t, s.id, 'TRX')).toBe(50_000_000_000n);
    const r = await t.call<{ status: string }>('POST', `/api/v1/sell-listings/${id}/close`, {
      token: s.token,
    });
    expect(r.body.returnData.status).toBe('CLOSED');
    expect(await escrow(t, s.id, 'TRX')).toBe(0n);
    expect(await available(t, s.id, 'TRX')).toBe(100_000_000_000n);
    const again = await t.call('POST', `/api/v1/sell-listings/${id}/close`, { token: s.token });
    expect([again.status, again.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    await listVia(t, s, { minQty: '10', maxQty: '500', unitPriceKrw: 200 });
    await t.assertLedger();
  });

  it('operator reject (with a reason) returns the escrow and is audited; approve twice is INVALID_STATE', async () => {
    const s = await trader(t, 'ETH', '3');
    const id = await listVia(t, s, { minQty: '0.5', maxQty: '3', unitPriceKrw: 4_000_000 });
    const noReason = await t.call('POST', `/ops/api/v1/listings/${id}/reject`, { token: op.token, body: {} });
    expect(noReason.status).toBe(400);
    const r = await t.call<{ status: string; rejectReason: string }>(
      'POST',
      `/ops/api/v1/listings/${id}/reject`,
      {
        token: op.token,
        body: { reason: 'bank account name mismatch' },
      },
    );
    expect(r.body.returnData).toMatchObject({
      status: 'REJECTED',
      rejectReason: 'bank account name mismatch',
    });
    expect(await escrow(t, s.id, 'ETH')).toBe(0n);
    expect(await available(t, s.id, 'ETH')).toBe(300_000_000n);
    const approve = await t.call('POST', `/ops/api/v1/listings/${id}/approve`, { token: op.token });
    expect([approve.status, approve.body.returnMessage]).toEqual([409, 'INVALID_STATE']);
    const log = await t.app.deps.db
      .selectFrom('audit_log')
      .select(['action', 'reason', 'operator_id'])
      .where('target_type', '=', 'listing')
      .where('target_id', '=', String(id))
      .execute();
    expect(log).toEqual([
      { action: 'listing.reject', reason: 'bank account name mismatch', operator_id: op.id },
    ]);
    const detail = await t.call<{ rejectReason: string; status: string }>('GET', `/my/sell/${id}`, {
      token: s.token,
    });
    expect(detail.body.returnData).toMatchObject({
      status: 'REJECTED',
      rejectReason: 'bank account name mismatch',
    });
    await t.assertLedger();
  });

  it('/my/sell lists only the caller listings; another member id is 404', async () => {
    const s = await trader(t, 'BTC', '1');
    const id = await listVia(t, s, { minQty: '0.1', maxQty: '0.5', unitPriceKrw: 90_000_000 });
    const mine = await t.call<{ list: { listingId: number }[]; totalCount: number }>('GET', '/my/sell', {
      token: s.token,
    });
    expect(mine.body.returnData.list.map((l) => l.listingId)).toEqual([id]);
    expect(mine.body.returnData.totalCount).toBe(1);
    const other = await createMember(t);
    const r = await t.call('GET', `/my/sell/${id}`, { token: other.token });
    expect([r.status, r.body.returnMessage]).toEqual([404, 'LISTING_NOT_FOUND']);
    expect((await t.call('GET', '/my/sell', { token: other.token })).body.returnData).toMatchObject({
      list: [],
      totalCount: 0,
    });
  });

  it('members get 403 on every operator route of the market; visitors 401', async () => {
    const m = await createMember(t);
    const routes: [string, string, unknown?][] = [
      ['GET', '/ops/api/v1/listings'],
      ['POST', '/ops/api/v1/listings/1/approve'],
      ['POST', '/ops/api/v1/listings/1/reject', { reason: 'x' }],
      ['GET', '/ops/api/v1/orders'],
      ['POST', '/ops/api/v1/orders/1/cancel', { reason: 'x' }],
      ['POST', '/ops/api/v1/orders/1/complete', { reason: 'x', txid: 'abc' }],
    ];
    for (const [method, url, body] of routes) {
      const r = await t.call(method, url, { token: m.token, body });
      expect([url, r.status, r.body.returnMessage]).toEqual([url, 403, 'FORBIDDEN']);
      expect((await t.call(method, url, { body })).status).toBe(401);
    }
  });
});

/**
 * DECISIONS §13 as amended 2026-11-25: with a stolen access token alone one could close a listing and put up
 * another paying the thief's account. Creating a listing needs the password or a fresh code, and the
 * operator's review sees the seller's profile account beside the listing's.
 */
describe('the step-up of a new listing', () => {
  const ledgerEntries = async () =>
    Number(
      (
        await t.app.deps.db
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listingsOf = async (sellerId: number) =>
    (await t.app.deps.db.selectFrom('sell_listings').select('id').where('seller_id', '=', sellerId).execute())
      .length;

  it('refuses a bearer token alone (422 STEP_UP_REQUIRED) and a wrong password, holding nothing', async () => {
    const s = await trader(t, 'BTC', '2');
    const entries = await ledgerEntries();
    const thief = listingBody(s.wallet.id, { bankName: '하나은행', accountNo: '99988877766' });
    const { stepUp: _, ...bare } = thief;
    const missing = await t.call('POST', '/api/v1/sell-listings', { token: s.token, body: bare });
    expect([missing.status, missing.body.returnMessage]).toEqual([422, 'STEP_UP_REQUIRED']);
    const wrong = await t.call('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: { ...thief, stepUp: { password: 'guess-pass1' } },
    });
    expect([wrong.status, wrong.body.returnMessage]).toEqual([400, 'INVALID_CREDENTIALS']);
    const badCode = await t.call('POST', '/api/v1/sell-listings', {
      token: s.token,
      body: { ...thief, stepUp: { code: '000000' } },
    });
    expect(badCode.status).toBe(400);
    expect(badCode.body.returnMessage).toMatch(/^CODE_/);
    // Under an Idempotency-Key the refusal is the same, and it is not kept: the member's retry with the
    // password under the same key runs (DECISIONS §15), below.
    const keyed = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/sell-listings',
        payload: JSON.stringify(body),
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${s.token}`,
          'idempotency-key': 'listing-after-step-up',
        },
      });
    expect((await keyed(bare)).json().returnMessage).toBe('STEP_UP_REQUIRED');

    expect(await escrow(t, s.id, 'BTC')).toBe(0n);
    expect(await available(t, s.id, 'BTC')).toBe(200_000_000n);
    expect(await listingsOf(s.id)).toBe(0);
    expect(await ledgerEntries()).toBe(entries);

    const own = await keyed({ ...bare, stepUp: { password: s.password } });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().returnData).toMatchObject({ status: 'PENDING_REVIEW', bankName: '하나은행' });
    const replay = await keyed({ ...bare, stepUp: { password: s.password } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await escrow(t, s.id, 'BTC')).toBe(150_000_000n);
    expect(await listingsOf(s.id)).toBe(1);
    await t.assertLedger();
  });

  it("takes a fresh code sent to the member's own phone instead of the password, once", async () => {
    const s = await trader(t, 'ETH', '5');
    const code = await requestAndReadCode(t, s.phoneE164, { token: s.token, body: { phone: s.phoneE164 } });
    const body = listingBody(s.wallet.id, {
      minQty: '1',
      maxQty: '2',
      unitPriceKrw: 4_000_000,
      stepUp: { code },
    });
    const r = await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', { token: s.token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await t.call('POST', `/api/v1/sell-listings/${r.body.returnData.listingId}/close`, { token: s.token });
    const reused = await t.call('POST', '/api/v1/sell-listings', { token: s.token, body });
    expect(reused.status).toBe(400);
    expect(reused.body.returnMessage).toMatch(/^CODE_/);
    expect(await escrow(t, s.id, 'ETH')).toBe(0n);
    await t.assertLedger();
  });
});

describe("the operator's review of a listing", () => {
  type Row = {
    listingId: number;
    bankName: string;
    accountNo: string;
    profileAccount: { bankName: string | null; accountNo: string | null; accountHolder: string };
    accountDiffersFromProfile: boolean;
  };
  const review = async (id: number) => {
    const r = await t.call<{ list: Row[] }>('GET', '/ops/api/v1/listings?status=PENDING_REVIEW&size=50', {
      token: op.token,
    });
    expect(r.status).toBe(200);
    const row = r.body.returnData.list.find((l) => l.listingId === id);
    if (!row) throw new Error(`listing ${id} not in the review queue`);
    return row;
  };

  it("shows the seller's profile account beside the listing's and flags a difference", async () => {
    // Fixture members keep KB국민은행 12345678901234 on their profile.
    const same = await trader(t, 'TRX', '1000', 'Park Minji');
    const sameId = (
      await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', {
        token: same.token,
        body: listingBody(same.wallet.id, {
          minQty: '10',
          maxQty: '100',
          unitPriceKrw: 200,
          bankName: ' KB국민은행 ',
          accountNo: '12345678901234',
        }),
      })
    ).body.returnData.listingId;
    expect(await review(sameId)).toMatchObject({
      bankName: 'KB국민은행',
      accountNo: '12345678901234',
      profileAccount: { bankName: 'KB국민은행', accountNo: '12345678901234', accountHolder: 'Park Minji' },
      accountDiffersFromProfile: false,
    });

    const other = await trader(t, 'TRX', '1000', 'Lee Sora');
    const otherId = (
      await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', {
        token: other.token,
        body: listingBody(other.wallet.id, { minQty: '10', maxQty: '100', unitPriceKrw: 200 }),
      })
    ).body.returnData.listingId;
    expect(await review(otherId)).toMatchObject({
      bankName: '신한은행',
      accountNo: '110123456789',
      profileAccount: { bankName: 'KB국민은행', accountNo: '12345678901234', accountHolder: 'Lee Sora' },
      accountDiffersFromProfile: true,
    });

    // Same bank, another number: flagged. No account on the profile at all: flagged.
    const none = await trader(t, 'XRP', '100');
    await t.app.deps.db
      .updateTable('members')
      .set({ bank_name: null, account_no: null })
      .where('id', '=', none.id)
      .execute();
    const noneId = (
      await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', {
        token: none.token,
        body: listingBody(none.wallet.id, {
          minQty: '1',
          maxQty: '10',
          unitPriceKrw: 900,
          bankName: 'KB국민은행',
          accountNo: '12345678901234',
        }),
      })
    ).body.returnData.listingId;
    expect(await review(noneId)).toMatchObject({
      profileAccount: { bankName: null, accountNo: null },
      accountDiffersFromProfile: true,
    });
    const number = await trader(t, 'XRP', '100');
    const numberId = (
      await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', {
        token: number.token,
        body: listingBody(number.wallet.id, {
          minQty: '1',
          maxQty: '10',
          unitPriceKrw: 900,
          bankName: 'KB국민은행',
          accountNo: '12345678901235',
        }),
      })
    ).body.returnData.listingId;
    expect((await review(numberId)).accountDiffersFromProfile).toBe(true);
  });
});
