import { type Page, TOTAL_COUNT_CAP, type TradeListing } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let viewer: FixtureMember;

/** Sellers of a listing in each of the four coins (one active listing per seller and coin), straight in SQL. */
async function listMany(first: number, sellers: number): Promise<void> {
  await sql`
    with m as (
      insert into members (login_id, nickname, name, country_code, phone_e164, password_hash, kyc_level,
                           bank_name, account_no)
      select 'tt' || g, 'ttnick' || g, 'Total Seller ' || g, '82',
             '+821068' || lpad(g::text, 6, '0'), 'x', 1, 'KB국민은행', lpad(g::text, 12, '0')
      from generate_series(${first}::int, ${first + sellers - 1}::int) g
      returning id),
    w as (
      insert into wallets (member_id, coin, address, derivation_index, destination_tag)
      select m.id, c.coin, 'tt-' || c.coin || '-' || m.id, 2000000 + m.id,
             case when c.coin = 'XRP' then 2000000 + m.id end
      from m cross join unnest(array['BTC', 'ETH', 'TRX', 'XRP']) as c(coin)
      returning id, member_id, coin)
    insert into sell_listings (seller_id, wallet_id, coin, min_qty, max_qty, remaining_qty, unit_price_krw,
                               bank_name, account_no, status)
    select w.member_id, w.id, w.coin, 1, 10, 10, 1000, 'KB국민은행', '1', 'OPEN' from w`.execute(
    t.app.deps.db,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createMember(t);
});
afterAll(() => t.close());

describe('GET /api/v1/sell-listings: the total counted up to TOTAL_COUNT_CAP (issue 27)', () => {
  it('is exact up to the cap, then the cap with totalCapped; a coin filter is counted on its own', async () => {
    // a page size of its own per read: each is a new key of the trade list cache (dropped by a notice that
    // may come after the next read)
    const get = (q: string) =>
      t.call<Page<TradeListing>>('GET', `/api/v1/sell-listings?${q}`, { token: viewer.token });
    await listMany(1, TOTAL_COUNT_CAP / 4);
    const exact = (await get('size=20')).body.returnData;
    expect(exact.totalCount).toBe(TOTAL_COUNT_CAP);
    expect(exact.totalCapped).toBeUndefined();

    await listMany(TOTAL_COUNT_CAP / 4 + 1, 1);
    const capped = (await get('size=21')).body.returnData;
    expect(capped).toMatchObject({ totalCount: TOTAL_COUNT_CAP, totalCapped: true });
    expect(capped.list).toHaveLength(21);
    const btc = (await get('size=22&coin=BTC')).body.returnData;
    expect(btc.totalCount).toBe(TOTAL_COUNT_CAP / 4 + 1);
    expect(btc.totalCapped).toBeUndefined();
  });
});
