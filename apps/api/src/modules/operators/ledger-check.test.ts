import type { opsLedgerCheck } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createMember, type FixtureMember, fundMember, runLedgerCheck } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

/*
 * The ledger check as a job (issue 27): the incremental pass finds what new postings break, the full pass
 * reports its progress chunk by chunk, and GET /ops/api/v1/ledger/check answers the stored result.
 */

let t: TestApp;
let op: FixtureMember;
type OpsLedgerCheck = z.infer<typeof opsLedgerCheck>;

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR' });
});
afterAll(() => t.close());

const check = async () => {
  const r = await t.call<OpsLedgerCheck>('GET', '/ops/api/v1/ledger/check', { token: op.token });
  expect(r.status).toBe(200);
  return r.body.returnData;
};

describe('the ledger check job', () => {
  it('answers the stored result: nothing checked before the job ran, then what the pass found', async () => {
    const before = await check();
    expect(before).toMatchObject({ ok: true, checkedAt: null, lastFullAt: null, verifiedThrough: 0 });
    const m = await createMember(t);
    await fundMember(t, m.id, 'BTC', '2');
    // the request itself checks nothing: the new postings are not counted until the job runs
    expect((await check()).counts.postings).toBe(0);
    await runLedgerCheck(t, false);
    const after = await check();
    expect(after.ok).toBe(true);
    expect(after.counts).toMatchObject({ entries: 1, postings: 2 });
    expect(after.verifiedThrough).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(after.checkedAt ?? ''))).toBe(false);
  });

  it('the incremental pass finds a posting inserted by SQL that unbalances its entry', async () => {
    const m = await createMember(t);
    await fundMember(t, m.id, 'ETH', '3');
    await runLedgerCheck(t, false);
    const { db } = t.app.deps;
    const acct = await db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('member_id', '=', m.id)
      .where('coin', '=', 'ETH')
      .where('kind', '=', 'available')
      .executeTakeFirstOrThrow();
    const entry = await db
      .selectFrom('ledger_postings')
      .select('entry_id')
      .where('account_id', '=', acct.id)
      .executeTakeFirstOrThrow();
    const bad = await sql<{ id: number }>`insert into ledger_postings (entry_id, account_id, coin, amount)
      values (${entry.entry_id}, ${acct.id}, 'ETH', 0.25) returning id`.execute(db);
    try {
      // stored until the job runs again
      expect((await check()).ok).toBe(true);
      const out = await runLedgerCheck(t, false);
      expect(out.verified).toBe(1);
      expect(out.problems).toEqual(
        expect.arrayContaining([
          `entry ${entry.entry_id}: ETH postings sum to 0.25000000`,
          `account ${acct.id}: balance 3.00000000 but postings sum to 3.25000000`,
        ]),
      );
      const broken = await check();
      expect(broken.ok).toBe(false);
      expect(broken.problems).toEqual(expect.arrayContaining(out.problems));
      // open problems stay until a full pass finds them gone
      await runLedgerCheck(t, false);
      expect((await check()).ok).toBe(false);
    } finally {
      await sql`delete from ledger_postings where id = ${bad.rows[0]?.id}`.execute(db);
    }
    await runLedgerCheck(t, true);
    const healed = await check();
    expect(healed.ok).toBe(true);
    expect(healed.problems).toEqual([]);
    expect(healed.lastFullAt).not.toBeNull();
  });

  it('the full pass runs chunk by chunk and reports its progress, then its result', async () => {
    const m = await createMember(t);
    for (const coin of ['BTC', 'XRP', 'TRX'] as const) await fundMember(t, m.id, coin, '10');
    await runLedgerCheck(t, false);
    const total = (await check()).verifiedThrough;
    expect(total).toBeGreaterThanOrEqual(8);
    const res = await t.call<OpsLedgerCheck>('POST', '/ops/api/v1/ledger/check/full', { token: op.token });
    expect(res.status).toBe(200);
    expect(res.body.returnData.fullRequested).toBe(true);

    const slice = { chunk: 3, budgetMs: 0 };
    const first = await runLedgerCheck(t, false, slice);
    expect(first.full).toMatchObject({ finished: false });
    const running = await check();
    expect(running.fullRequested).toBe(false);
    expect(running.fullPass).toMatchObject({ through: total, position: 3 });
    expect(running.fullPass?.progress).toBeCloseTo(3 / total);

    const seen: number[] = [];
    for (let i = 0; i < 100; i++) {
      const out = await runLedgerCheck(t, false, slice);
      if (out.full?.finished) break;
      seen.push((await check()).fullPass?.position ?? -1);
    }
    // each tick moved one chunk further
    expect(seen).toEqual(seen.map((_, i) => Math.min(total, 3 * (i + 2))));
    const done = await check();
    expect(done.fullPass).toBeNull();
    expect(done.ok).toBe(true);
    expect(done.lastFullAt).not.toBeNull();
    const n = await sql<{ n: number }>`select count(*)::int as n from ledger_postings`.execute(t.app.deps.db);
    expect(done.counts.postings).toBe(n.rows[0]?.n);
    expect(done.counts.accounts).toBeGreaterThanOrEqual(8);
    await t.assertLedger();
  });
});
