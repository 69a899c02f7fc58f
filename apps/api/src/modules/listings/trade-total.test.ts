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

describe('GET /api/v1/sell-listings: the total from the kept counts (issue 27, 037_kept_counts.sql)', () => {
  it('is exact past TOTAL_COUNT_CAP, per coin, and leaves out a suspended seller', async () => {
    // a page size of its own per read: each is a new key of the trade list cache (dropped by a notice that
    // may come after the next read)
    let size = 10;
    const get = async (q = '') =>
      (
        await t.call<Page<TradeListing>>('GET', `/api/v1/sell-listings?size=${size++}${q}`, {
          token: viewer.token,
        })
      ).body.returnData;
    await listMany(1, TOTAL_COUNT_CAP / 4 + 1);
    const all = await get();
    expect(all.totalCount).toBe(TOTAL_COUNT_CAP + 4);
    expect(all.totalCapped).toBeUndefined();
    expect((await get('&coin=BTC')).totalCount).toBe(TOTAL_COUNT_CAP / 4 + 1);

    await sql`update members set status = 'SUSPENDED' where login_id = 'tt1'`.execute(t.app.deps.db);
    expect((await get()).totalCount).toBe(TOTAL_COUNT_CAP);
    expect((await get('&coin=BTC')).totalCount).toBe(TOTAL_COUNT_CAP / 4);
    await sql`update sell_listings set status = 'CLOSED' where coin = 'ETH'`.execute(t.app.deps.db);
    expect((await get()).totalCount).toBe((TOTAL_COUNT_CAP / 4) * 3);
    expect((await get('&coin=ETH')).totalCount).toBe(0);
  });
});
