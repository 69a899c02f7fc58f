import type { OpsAuditEntry } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember, runLedgerCheck } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { audit } from '../audit/index.ts';

let t: TestApp;
let op: FixtureMember;
let op2: FixtureMember;

type Page<T> = { list: T[]; nextCursor: string | null; totalCount: number };
type Check = { ok: boolean; problems: string[]; checkedAt: string; counts: Record<string, number> };

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR' });
  op2 = await createMember(t, { role: 'OPERATOR' });
});
afterAll(() => t.close());

describe('GET /ops/api/v1/audit-log', () => {
  it('pages newest first with the operator login ID, across all pages exactly once', async () => {
    await t.app.deps.db.transaction().execute(async (tx) => {
      for (let i = 1; i <= 7; i++) {
        await audit(tx, {
          operatorId: i % 2 ? op.id : op2.id,
          action: 'listing.approve',
          targetType: 'listing',
          targetId: i,
          reason: i === 7 ? 'looks fine' : null,
          data: { n: i },
        });
      }
    });
    const seen: OpsAuditEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/ops/api/v1/audit-log?size=3${cursor ? `&cursor=${cursor}` : ''}`;
      const r: { status: number; body: { returnData: Page<OpsAuditEntry> } } = await t.call<
        Page<OpsAuditEntry>
      >('GET', url, { token: op.token });
      expect(r.status).toBe(200);
      expect(r.body.returnData.totalCount).toBe(7);
      seen.push(...r.body.returnData.list);
      cursor = r.body.returnData.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.targetId)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    expect(seen[0]).toMatchObject({
      operatorId: op.id,
      operatorLoginId: op.loginId,
      action: 'listing.approve',
      targetType: 'listing',
      reason: 'looks fine',
      data: { n: 7 },
    });
    expect(seen[1]).toMatchObject({ operatorLoginId: op2.loginId, reason: null });
    expect(Number.isNaN(Date.parse(seen[0]!.createdAt))).toBe(false);
  });

  it('filters by target and refuses a forged cursor', async () => {
    const one = await t.call<Page<OpsAuditEntry>>(
      'GET',
      '/ops/api/v1/audit-log?targetType=listing&targetId=3',
      {
        token: op.token,
      },
    );
    expect(one.body.returnData.list.map((e) => e.targetId)).toEqual(['3']);
    const bad = await t.call('GET', '/ops/api/v1/audit-log?cursor=aTphYmM', { token: op.token });
    expect(bad.status).toBe(400);
    const badType = await t.call('GET', '/ops/api/v1/audit-log?targetType=planet', { token: op.token });
    expect(badType.status).toBe(400);
  });
});

describe('GET /ops/api/v1/ledger/check', () => {
  it('is clean after real postings and reports a balance changed behind the ledger’s back', async () => {
    const m = await createMember(t);
    await fundMember(t, m.id, 'BTC', '1.5');
    await fundMember(t, m.id, 'XRP', '250');
    await runLedgerCheck(t);
    const clean = await t.call<Check>('GET', '/ops/api/v1/ledger/check', { token: op.token });
    expect(clean.status).toBe(200);
    expect(clean.body.returnData.ok).toBe(true);
    expect(clean.body.returnData.problems).toEqual([]);
    expect(clean.body.returnData.counts).toMatchObject({ entries: 2, postings: 4 });
    expect(clean.body.returnData.counts.accounts).toBeGreaterThanOrEqual(4);

    const acct = await t.app.deps.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('member_id', '=', m.id)
      .where('coin', '=', 'BTC')
      .where('kind', '=', 'available')
      .executeTakeFirstOrThrow();
    await sql`update ledger_accounts set balance = balance + 0.1 where id = ${acct.id}`.execute(
      t.app.deps.db,
    );
    try {
      await runLedgerCheck(t);
      const broken = await t.call<Check>('GET', '/ops/api/v1/ledger/check', { token: op.token });
      expect(broken.status).toBe(200);
      expect(broken.body.returnData.ok).toBe(false);
      expect(broken.body.returnData.problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^coin BTC: balances sum to 0\.1/),
          expect.stringMatching(new RegExp(`^account ${acct.id}: balance 1\\.6`)),
        ]),
      );
    } finally {
      await sql`update ledger_accounts set balance = balance - 0.1 where id = ${acct.id}`.execute(
        t.app.deps.db,
      );
    }
    await runLedgerCheck(t);
    const healed = await t.call<Check>('GET', '/ops/api/v1/ledger/check', { token: op.token });
    expect(healed.body.returnData.ok).toBe(true);
    await t.assertLedger();
  });
});
