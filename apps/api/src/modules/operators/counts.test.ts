import type { OpsSummary } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { inTx } from '../../db/tx.ts';
import { BTC_PRICE, btcMarket, buyBody, listVia, placeOrder, trader } from '../orders/test-kit.ts';
import { foldOpsCounts, readOpsCounts, recountOps } from './counts-repo.ts';

let t: TestApp;
let op: FixtureMember;
const orderIds: number[] = [];
const listingIds: number[] = [];
const memberIds: number[] = [];

const ORDER = ['REQUESTED', 'PAID', 'DISPUTED', 'COMPLETED', 'CANCELED', 'EXPIRED'];
const LISTING = ['PENDING_REVIEW', 'OPEN', 'PAUSED', 'CLOSED'];
const MEMBER = ['ACTIVE', 'SUSPENDED'];
const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR' });
  const { seller, buyer, id } = await btcMarket(t, op);
  listingIds.push(id);
  for (let i = 0; i < 3; i++) {
    const r = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    orderIds.push(r.body.returnData.orderId);
  }
  const other = await trader(t, 'XRP', '1000');
  listingIds.push(await listVia(t, other, { minQty: '10', maxQty: '100', unitPriceKrw: 3000 }));
  memberIds.push(seller.id, buyer.id, other.id);
});
afterAll(() => t.close());

/** One transaction moving a random order, listing and member to random states; some roll back. */
async function randomMoves(db: TestApp['app']['deps']['db'], rollBack: boolean): Promise<void> {
  await inTx(db, async (tx) => {
    await sql`update buy_orders set status = ${pick(ORDER)} where id = ${pick(orderIds)}`.execute(tx);
    await sql`update sell_listings set status = ${pick(LISTING)} where id = ${pick(listingIds)}`.execute(tx);
    await sql`update members set status = ${pick(MEMBER)} where id = ${pick(memberIds)}`.execute(tx);
    if (rollBack) throw new Error('rolled back on purpose');
  }).catch((err: Error) => {
    // a deadlock between two random transactions is a rollback like the one on purpose
    if (!/rolled back on purpose|deadlock/.test(err.message)) throw err;
  });
}

describe('the console summary reads kept counts (037_ops_counts.sql, issue 27)', () => {
  it('counts every queue exactly through parallel changes, rollbacks and concurrent folds', async () => {
    const db = t.app.deps.db;
    expect(await readOpsCounts(db)).toEqual(await recountOps(db));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      work.push(randomMoves(db, i % 3 === 0));
      if (i % 10 === 0) work.push(foldOpsCounts(db), foldOpsCounts(db));
    }
    await Promise.all(work);
    const kept = await readOpsCounts(db);
    expect(kept).toEqual(await recountOps(db));
    // what the console is answered is the same, and folding changes nothing but where the numbers sit
    const r = await t.call<OpsSummary>('GET', '/ops/api/v1/summary', { token: op.token });
    expect(r.body.returnData).toEqual(kept);
    await Promise.all([foldOpsCounts(db), foldOpsCounts(db)]);
    const left = await sql<{ n: string }>`select count(*) as n from ops_count_deltas`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(await readOpsCounts(db)).toEqual(kept);
  });

  it('a change that does not move a row between queues writes no delta', async () => {
    const db = t.app.deps.db;
    await foldOpsCounts(db);
    const id = orderIds[0] as number;
    await sql`update buy_orders set status = 'REQUESTED' where id = ${id}`.execute(db);
    await foldOpsCounts(db);
    await sql`update buy_orders set status = 'PAID', payment_deadline = now() + interval '1 hour'
      where id = ${id}`.execute(db);
    await sql`update members set nickname = nickname where id = ${memberIds[0] as number}`.execute(db);
    const left = await sql<{ n: string }>`select count(*) as n from ops_count_deltas`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(await readOpsCounts(db)).toEqual(await recountOps(db));
  });
});
