import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { seedVerifiedAccount } from '../bank/index.ts';
import { grantKycLevel } from '../kyc/index.ts';
import { RETENTION_JOB, runRetentionPurge } from './index.ts';
import { acquireJobLease } from './repo.ts';

/*
 * DECISIONS §19: a closed membership's identity and trade records are kept RETENTION_YEARS (5) and then purged
 * by a job; access logs (the login history) 90 days. Time is moved by the run's `asOf`: the job's "now".
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RULES = { years: 5, batch: 2, loginBatch: 3 };
const DAY = 86_400_000;

/** A member closed at `closedAt` (as POST /my/close leaves one), with a login row, a block and a notification. */
async function closedAt(closed: Date): Promise<FixtureMember> {
  const m = await createMember(t);
  const other = await createMember(t);
  const db = t.app.deps.db;
  await db
    .updateTable('members')
    .set({ status: 'CLOSED', closed_at: closed })
    .where('id', '=', m.id)
    .execute();
  await db
    .insertInto('login_attempts')
    .values({ member_id: m.id, ip: '192.0.2.7', user_agent: null, result: 'OK', at: closed })
    .execute();
  await db.insertInto('member_blocks').values({ blocker_id: other.id, blocked_id: m.id }).execute();
  return m;
}

const row = (id: number) =>
  t.app.deps.db
    .selectFrom('members')
    .select(['login_id', 'nickname', 'name', 'phone_e164', 'account_no', 'purged_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** `asOf` such that `closed` lies `years` years and `days` days before it. */
function after(closed: Date, years: number, days: number): Date {
  const d = new Date(closed);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return new Date(d.getTime() + days * DAY);
}

describe('the retention purge', () => {
  it('purges a membership closed 5 years + 1 day ago and keeps one closed 5 years - 1 day ago', async () => {
    const closed = new Date('2026-01-10T00:00:00Z');
    const m = await closedAt(closed);
    const kept = await runRetentionPurge(t.app.deps.db, RULES, after(closed, 5, -1));
    expect(kept.purged).toBe(0);
    expect((await row(m.id)).purged_at).toBeNull();
    const out = await runRetentionPurge(t.app.deps.db, RULES, after(closed, 5, 1));
    expect(out.purged).toBe(1);
    const r = await row(m.id);
    expect(r).toMatchObject({
      login_id: `purged-${m.id}`,
      nickname: `purged-${m.id}`,
      name: '',
      phone_e164: '',
      account_no: null,
      status: 'CLOSED',
    });
    expect(r.purged_at).not.toBeNull();
    const db = t.app.deps.db;
    expect(await db.selectFrom('member_blocks').selectAll().where('blocked_id', '=', m.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('login_attempts').selectAll().where('member_id', '=', m.id).execute()).toEqual(
      [],
    );
    // Idempotent: a second run finds nothing more to do.
    expect((await runRetentionPurge(t.app.deps.db, RULES, after(closed, 5, 2))).purged).toBe(0);
    // The old login id cannot sign in (and nobody can: the row keeps a hash of a secret nobody holds).
    const signIn = await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect(signIn.body.returnMessage).toBe('INVALID_CREDENTIALS');
  });

  it('never deletes the ledger: a closed member with ledger history is anonymized, entries and postings stay', async () => {
    const closed = new Date('2020-03-01T00:00:00Z');
    const m = await createMember(t);
    // Its deposit stays in the ledger (as a deposit that reached a closed membership would): the purge
    // anonymizes the owner and leaves every account, entry and posting as it was.
    await fundMember(t, m.id, 'BTC', '0.3');
    const db = t.app.deps.db;
    const before = await sql<{ n: number }>`select count(*)::int as n from ledger_postings p
        join ledger_accounts a on a.id = p.account_id where a.member_id = ${m.id}`.execute(db);
    await db
      .updateTable('members')
      .set({ status: 'CLOSED', closed_at: closed })
      .where('id', '=', m.id)
      .execute();
    expect(
      (await runRetentionPurge(db, { ...RULES, batch: 50 }, after(closed, 5, 1))).purged,
    ).toBeGreaterThanOrEqual(1);
    const afterRows = await sql<{ n: number }>`select count(*)::int as n from ledger_postings p
        join ledger_accounts a on a.id = p.account_id where a.member_id = ${m.id}`.execute(db);
    expect(afterRows.rows[0]?.n).toBe(before.rows[0]?.n);
    expect(before.rows[0]?.n).toBeGreaterThan(0);
    expect((await row(m.id)).login_id).toBe(`purged-${m.id}`);
    await t.assertLedger();
  });

  it('deletes the identity evidence and the verified bank account of a purged member, and only theirs', async () => {
    const closed = new Date('2020-05-01T00:00:00Z');
    const db = t.app.deps.db;
    const m = await closedAt(closed);
    const open = await createMember(t);
    for (const who of [m, open]) {
      await grantKycLevel(db, who.id, 2);
      await seedVerifiedAccount(db, {
        memberId: who.id,
        bankName: '신한은행',
        accountNo: '110123456789',
        holderName: 'Holder',
      });
      await db
        .insertInto('kyc_documents')
        .values({
          member_id: who.id,
          content_type: 'image/png',
          width: 1,
          height: 1,
          byte_size: 1,
          key_id: 'test',
          sealed: Buffer.from([1]),
        })
        .execute();
    }
    const counts = async (id: number) => {
      const n = await sql<{ docs: number; ids: number; reqs: number; banks: number }>`select
          (select count(*)::int from kyc_documents where member_id = ${id}) as docs,
          (select count(*)::int from kyc_identities where member_id = ${id}) as ids,
          (select count(*)::int from kyc_identity_requests where member_id = ${id}) as reqs,
          (select count(*)::int from bank_accounts where member_id = ${id}) as banks`.execute(db);
      return n.rows[0];
    };
    const kept = await counts(open.id);
    expect(await counts(m.id)).toEqual(kept);
    expect(kept).toMatchObject({ docs: 1, ids: 1, banks: 1 });
    await runRetentionPurge(db, { ...RULES, batch: 50 }, after(closed, 5, 1));
    expect((await row(m.id)).purged_at).not.toBeNull();
    expect(await counts(m.id)).toEqual({ docs: 0, ids: 0, reqs: 0, banks: 0 });
    expect(await counts(open.id)).toEqual(kept);
  });

  it('is bounded per run: RETENTION_BATCH memberships a run, the next run takes the rest', async () => {
    const closed = new Date('2019-06-01T00:00:00Z');
    const ms = [await closedAt(closed), await closedAt(closed), await closedAt(closed)];
    const asOf = after(closed, 5, 1);
    const first = await runRetentionPurge(t.app.deps.db, RULES, asOf);
    expect(first.purged).toBe(2);
    const second = await runRetentionPurge(t.app.deps.db, RULES, asOf);
    expect(second.purged).toBe(1);
    for (const m of ms) expect((await row(m.id)).purged_at).not.toBeNull();
  });

  it('prunes login attempts older than 90 days, a batch a run, of open memberships too', async () => {
    const m = await createMember(t);
    const db = t.app.deps.db;
    const asOf = new Date('2031-01-01T00:00:00Z');
    const old = new Date(asOf.getTime() - 91 * DAY);
    const recent = new Date(asOf.getTime() - 89 * DAY);
    await db.deleteFrom('login_attempts').execute();
    await db
      .insertInto('login_attempts')
      .values([
        ...Array.from({ length: 4 }, () => ({
          member_id: m.id,
          ip: '192.0.2.1',
          user_agent: null,
          result: 'OK' as const,
          at: old,
        })),
        { member_id: m.id, ip: '192.0.2.2', user_agent: null, result: 'OK', at: recent },
      ])
      .execute();
    expect((await runRetentionPurge(db, RULES, asOf)).loginsPruned).toBe(3);
    expect((await runRetentionPurge(db, RULES, asOf)).loginsPruned).toBe(1);
    expect((await runRetentionPurge(db, RULES, asOf)).loginsPruned).toBe(0);
    const left = await db.selectFrom('login_attempts').select('ip').where('member_id', '=', m.id).execute();
    expect(left).toEqual([{ ip: '192.0.2.2' }]);
  });

  it('one instance holds the lease at a time; another takes it once it ran out', async () => {
    const db = t.app.deps.db;
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((h) => acquireJobLease(db, RETENTION_JOB, h, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const holder = ['a', 'b', 'c', 'd'][results.indexOf(true)] as string;
    expect(await acquireJobLease(db, RETENTION_JOB, holder, 60_000)).toBe(true);
    await db
      .updateTable('job_leases')
      .set({ lease_until: sql<Date>`now() - interval '1 second'` })
      .where('name', '=', RETENTION_JOB)
      .execute();
    expect(await acquireJobLease(db, RETENTION_JOB, 'e', 60_000)).toBe(true);
    expect(await acquireJobLease(db, RETENTION_JOB, holder, 60_000)).toBe(false);
  });

  it('prunes SMS codes and refresh tokens a month past their use; a verified purchase code stays', async () => {
    const m = await createMember(t);
    const db = t.app.deps.db;
    const asOf = new Date('2032-01-01T00:00:00Z');
    const old = new Date(asOf.getTime() - 31 * DAY);
    const recent = new Date(asOf.getTime() - 29 * DAY);
    const code = (purpose: 'signup' | 'member', at: Date, verified: boolean) => ({
      phone_e164: m.phoneE164,
      purpose,
      code_hash: 'x',
      expires_at: new Date(at.getTime() + 120_000),
      verified_at: verified ? new Date(at.getTime() + 30_000) : null,
      member_id: m.id,
      created_at: at,
    });
    await db
      .deleteFrom('sms_codes')
      .where('created_at', '<', asOf)
      .where('phone_e164', '=', m.phoneE164)
      .execute();
    const ids = await db
      .insertInto('sms_codes')
      .values([
        code('signup', old, true),
        code('member', old, false),
        code('member', old, true),
        code('signup', recent, true),
      ])
      .returning('id')
      .execute();
    const token = (expires: Date, hash: string) => ({
      member_id: m.id,
      family_id: '00000000-0000-4000-8000-000000000001',
      token_hash: hash,
      expires_at: expires,
      created_at: new Date(expires.getTime() - 30 * DAY),
    });
    await db
      .insertInto('refresh_tokens')
      .values([token(old, `old-${m.id}`), token(recent, `recent-${m.id}`)])
      .execute();
    const big = { ...RULES, loginBatch: 1000 };
    const out = await runRetentionPurge(db, big, asOf);
    expect(out.smsCodesPruned).toBeGreaterThanOrEqual(2);
    expect(out.refreshTokensPruned).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom('sms_codes')
      .select('id')
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    // the old signup and the old unverified codes went; the old verified purchase code and the recent one stayed
    expect(left.map((r) => r.id)).toEqual([ids[2]?.id, ids[3]?.id]);
    const tokens = await db
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('member_id', '=', m.id)
      .execute();
    expect(tokens.map((r) => r.token_hash).sort()).toEqual([`recent-${m.id}`]);
    expect((await runRetentionPurge(db, big, asOf)).smsCodesPruned).toBe(0);
  });
});
