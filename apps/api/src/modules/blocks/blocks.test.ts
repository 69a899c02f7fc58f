import { MAX_BLOCKS } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import {
  BTC_PRICE,
  buyBody,
  openListing,
  operator,
  placeOrder,
  type Trader,
  trader,
} from '../orders/test-kit.ts';

/*
 * DECISIONS §19 "Counterparts": POST/DELETE/GET /api/v1/blocks, the blocker's trade list without the blocked
 * seller (the shared cache untouched for everyone else), and 422 BLOCKED at purchase, both ways.
 */

let t: TestApp;
let op: FixtureMember;
beforeAll(async () => {
  t = await createTestApp({ LOOKUP_PER_IP_PER_HOUR: '1000' });
  op = await operator(t);
});
afterAll(() => t.close());

type BlockList = { items: { nickname: string; blockedAt: string }[]; max: number };
const block = (token: string, nickname: unknown) =>
  t.call<BlockList>('POST', '/api/v1/blocks', { token, body: { nickname } });
const unblock = (token: string, nickname: string) =>
  t.call<BlockList>('DELETE', `/api/v1/blocks/${encodeURIComponent(nickname)}`, { token });
const list = (token: string) => t.call<BlockList>('GET', '/api/v1/blocks', { token });

async function tradeListIds(token?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/sell-listings?coin=BTC&size=50',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const ids = (res.json().returnData.list as { listingId: number }[]).map((l) => l.listingId);
  const total = res.json().returnData.totalCount as number;
  return { ids, total, cacheControl: res.headers['cache-control'], etag: res.headers.etag };
}

describe('the block list', () => {
  it('blocks by nickname (any case), lists newest first, blocks again without a second row, unblocks', async () => {
    const me = await createMember(t);
    const a = await createMember(t);
    const b = await createMember(t);
    expect((await block(me.token, a.nickname.toUpperCase())).status).toBe(200);
    const second = await block(me.token, b.nickname);
    expect(second.body.returnData.items.map((i) => i.nickname)).toEqual([b.nickname, a.nickname]);
    expect(second.body.returnData.max).toBe(MAX_BLOCKS);
    expect((await block(me.token, a.nickname)).body.returnData.items).toHaveLength(2);
    const after = await unblock(me.token, a.nickname);
    expect([after.status, after.body.returnData.items.map((i) => i.nickname)]).toEqual([200, [b.nickname]]);
    // Unblocking what is not on the list: 404, whether the nickname exists or not.
    expect((await unblock(me.token, a.nickname)).body.returnMessage).toBe('NOT_FOUND');
    expect((await unblock(me.token, 'nobody99')).body.returnMessage).toBe('NOT_FOUND');
    // Each list is its owner's.
    expect((await list(a.token)).body.returnData.items).toEqual([]);
  });

  it('refuses yourself (422 BLOCK_SELF), an unknown nickname (404), a malformed one (400), a visitor (401)', async () => {
    const me = await createMember(t);
    expect((await block(me.token, me.nickname)).body.returnMessage).toBe('BLOCK_SELF');
    const unknown = await block(me.token, 'zz-nobody');
    expect([unknown.status, unknown.body.returnMessage]).toEqual([404, 'NICKNAME_NOT_FOUND']);
    expect((await block(me.token, 'a\u0000bcd')).status).toBe(400);
    expect((await block(me.token, 42)).status).toBe(400);
    expect((await t.call('GET', '/api/v1/blocks')).status).toBe(401);
    expect((await list(me.token)).body.returnData.items).toEqual([]);
  });

  it('spends the lookup budget before it looks (429 once spent, even for a real nickname)', async () => {
    const t2 = await createTestApp({ LOOKUP_PER_IP_PER_HOUR: '2' });
    try {
      const me = await createMember(t2);
      const other = await createMember(t2);
      const call = (nickname: string) =>
        t2.call('POST', '/api/v1/blocks', { token: me.token, body: { nickname }, ip: '10.9.9.9' });
      expect((await call('zz-nobody')).status).toBe(404);
      expect((await call('zz-nobody2')).status).toBe(404);
      expect((await call(other.nickname)).status).toBe(429);
    } finally {
      await t2.close();
    }
  });

  it(`holds at most ${MAX_BLOCKS} entries (422 BLOCKS_LIMIT {max}); one already on a full list is no new entry`, async () => {
    const me = await createMember(t);
    const others = await Promise.all(Array.from({ length: MAX_BLOCKS }, () => createMember(t)));
    await t.app.deps.db
      .insertInto('member_blocks')
      .values(others.slice(0, MAX_BLOCKS - 1).map((o) => ({ blocker_id: me.id, blocked_id: o.id })))
      .execute();
    const extra = await createMember(t);
    const last = others[MAX_BLOCKS - 1] as FixtureMember;
    // Two at once for the last place: exactly one gets it (the list's lock decides).
    const [x, y] = await Promise.all([block(me.token, last.nickname), block(me.token, extra.nickname)]);
    expect([x.status, y.status].sort()).toEqual([200, 422]);
    const refused = x.status === 422 ? x : y;
    expect([refused.body.returnMessage, refused.body.returnData]).toEqual([
      'BLOCKS_LIMIT',
      { max: MAX_BLOCKS },
    ]);
    expect((await list(me.token)).body.returnData.items).toHaveLength(MAX_BLOCKS);
    expect((await block(me.token, (others[0] as FixtureMember).nickname)).status).toBe(200);
  });
});

describe('what a block does', () => {
  let seller: Trader;
  let blocker: Trader;
  let listingId: number;
  let blockerListing: number;
  beforeAll(async () => {
    seller = await trader(t, 'BTC', '1');
    blocker = await trader(t, 'BTC', '1');
    listingId = await openListing(t, seller, op, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: BTC_PRICE });
    blockerListing = await openListing(t, blocker, op, {
      minQty: '0.01',
      maxQty: '0.5',
      unitPriceKrw: BTC_PRICE,
    });
  });

  it("hides the blocked seller's listing from the blocker only; everyone else keeps the shared cached list", async () => {
    const bystander = await createMember(t);
    expect((await tradeListIds(blocker.token)).ids).toContain(listingId);
    expect((await block(blocker.token, seller.nickname)).status).toBe(200);
    const mine = await tradeListIds(blocker.token);
    expect(mine.ids).not.toContain(listingId);
    expect(mine.ids).toContain(blockerListing);
    // the total leaves the blocked seller's listing out too (a kept count less the blocked sellers', issue 27)
    expect(mine.total).toBe(mine.ids.length);
    expect(mine.total).toBe((await tradeListIds()).total - 1);
    // The blocker's answer is their own: never stored by a browser or proxy, no shared ETag.
    expect([mine.cacheControl, mine.etag]).toEqual(['no-store', undefined]);
    for (const view of [
      await tradeListIds(),
      await tradeListIds(bystander.token),
      await tradeListIds(seller.token),
    ]) {
      expect(view.ids).toContain(listingId);
      expect(view.cacheControl).toBe('public, no-cache');
    }
    // A token that does not verify is a visitor's view, not a refusal.
    expect((await tradeListIds('not-a-token')).ids).toContain(listingId);
    await unblock(blocker.token, seller.nickname);
    expect((await tradeListIds(blocker.token)).ids).toContain(listingId);
  });

  it('refuses an order between the two either way (422 BLOCKED), and nothing is written', async () => {
    expect((await block(blocker.token, seller.nickname)).status).toBe(200);
    const blockedBuys = await placeOrder(
      t,
      seller,
      buyBody(blockerListing, 1_000_000, BTC_PRICE, seller.wallet.id),
    );
    expect([blockedBuys.status, blockedBuys.body.returnMessage]).toEqual([422, 'BLOCKED']);
    const blockerBuys = await placeOrder(
      t,
      blocker,
      buyBody(listingId, 1_000_000, BTC_PRICE, blocker.wallet.id),
    );
    expect([blockerBuys.status, blockerBuys.body.returnMessage]).toEqual([422, 'BLOCKED']);
    const orders = await t.app.deps.db
      .selectFrom('buy_orders')
      .select('id')
      .where('listing_id', 'in', [listingId, blockerListing])
      .execute();
    expect(orders).toEqual([]);
    await unblock(blocker.token, seller.nickname);
    const ok = await placeOrder(t, seller, buyBody(blockerListing, 1_000_000, BTC_PRICE, seller.wallet.id));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    await t.assertLedger();
  });

  it.skipIf(!onPostgres)(
    'a block racing a purchase: the order exists only if it was placed before the block',
    async () => {
      for (let round = 0; round < 4; round++) {
        const s = await trader(t, 'BTC', '1');
        const b = await trader(t, 'BTC');
        const id = await openListing(t, s, op, { minQty: '0.01', maxQty: '0.5', unitPriceKrw: BTC_PRICE });
        const [blocked, bought] = await Promise.all([
          block(s.token, b.nickname),
          placeOrder(t, b, buyBody(id, 1_000_000, BTC_PRICE, b.wallet.id)),
        ]);
        expect(blocked.status).toBe(200);
        expect([200, 422]).toContain(bought.status);
        if (bought.status === 422) expect(bought.body.returnMessage).toBe('BLOCKED');
        // Afterwards the block holds, whoever won.
        const again = await placeOrder(t, b, buyBody(id, 1_000_000, BTC_PRICE, b.wallet.id));
        expect(again.body.returnMessage).toBe('BLOCKED');
      }
      await t.assertLedger();
    },
  );
});
