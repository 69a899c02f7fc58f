import type { OpsAuditEntry, OpsMember } from '@p2p/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { hashPassword } from '../identity/index.ts';
import { SEARCH_COUNT_CAP } from './queries.ts';

let t: TestApp;
let op: FixtureMember;
let member: FixtureMember;

type Page<T> = { list: T[]; nextCursor: string | null; totalCount: number };

beforeAll(async () => {
  t = await createTestApp();
  op = await createMember(t, { role: 'OPERATOR', name: 'Ops Kim' });
  member = await createMember(t, { name: 'Lee Seller' });
});
afterAll(() => t.close());

const OPS_CALLS: [string, string, unknown?][] = [
  ['GET', '/ops/api/v1/members'],
  ['GET', '/ops/api/v1/members/1'],
  ['POST', '/ops/api/v1/members/1/suspend', { reason: 'x' }],
  ['POST', '/ops/api/v1/members/1/unsuspend', {}],
  ['GET', '/ops/api/v1/audit-log'],
  ['GET', '/ops/api/v1/ledger/check'],
  ['GET', '/ops/api/v1/summary'],
];

describe('operator guard', () => {
  it.each(OPS_CALLS)('%s %s: 401 without a token, 403 FORBIDDEN for a member', async (method, url, body) => {
    const anon = await t.call(method, url, { body });
    expect(anon.status).toBe(401);
    expect(anon.body.returnCode).toBe(401);
    const asMember = await t.call(method, url, { body, token: member.token });
    expect(asMember.status).toBe(403);
    expect(asMember.body.returnMessage).toBe('FORBIDDEN');
  });
});

describe('GET /ops/api/v1/members', () => {
  it('finds members by login ID, nickname, name and phone (E.164, local form or its last digits)', async () => {
    const probe = await createMember(t, { name: 'Searchable Park' });
    const local = `0${probe.phoneE164.slice(3)}`; // +8210... -> 010...
    const dashed = `${local.slice(0, 3)}-${local.slice(3, 7)}-${local.slice(7)}`;
    const qs = [
      probe.loginId.toUpperCase(),
      probe.nickname,
      'searchable',
      probe.phoneE164,
      dashed,
      local.slice(-7),
    ];
    for (const q of qs) {
      const r = await t.call<Page<OpsMember>>('GET', `/ops/api/v1/members?q=${encodeURIComponent(q)}`, {
        token: op.token,
      });
      expect(r.status, q).toBe(200);
      expect(r.body.returnData.list.map((m) => m.id)).toContain(probe.id);
      expect(r.body.returnData.totalCount).toBe(r.body.returnData.list.length);
    }
    const none = await t.call<Page<OpsMember>>('GET', '/ops/api/v1/members?q=%25_nobody_%25', {
      token: op.token,
    });
    expect(none.body.returnData).toEqual({ list: [], nextCursor: null, totalCount: 0 });
  });

  it('pages newest first with an opaque cursor and shows the member fields', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const qs: string = cursor ? `&cursor=${cursor}` : '';
      const r: { body: { returnData: Page<OpsMember> } } = await t.call<Page<OpsMember>>(
        'GET',
        `/ops/api/v1/members?size=1${qs}`,
        { token: op.token },
      );
      seen.push(...r.body.returnData.list.map((m) => m.id));
      total = r.body.returnData.totalCount;
      cursor = r.body.returnData.nextCursor;
    } while (cursor);
    expect(seen.length).toBe(total);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    const one = await t.call<Page<OpsMember>>('GET', `/ops/api/v1/members?q=${member.loginId}`, {
      token: op.token,
    });
    expect(one.body.returnData.list[0]).toMatchObject({
      id: member.id,
      loginId: member.loginId,
      nickname: member.nickname,
      name: 'Lee Seller',
      countryCode: '82',
      phoneE164: member.phoneE164,
      role: 'MEMBER',
      status: 'ACTIVE',
    });
    expect(one.body.returnData.list[0]).not.toHaveProperty('passwordHash');
  });

  it('refuses a forged cursor and an oversized page', async () => {
    const forged = await t.call('GET', '/ops/api/v1/members?cursor=Zm9vYmFy', { token: op.token });
    expect(forged.status).toBe(400);
    expect(forged.body.returnData).toEqual({ fields: { cursor: 'INVALID_FORMAT' } });
    const big = await t.call('GET', '/ops/api/v1/members?size=51', { token: op.token });
    expect(big.status).toBe(400);
  });
});

describe('suspend / unsuspend', () => {
  it('suspends with a reason: refresh tokens revoked, token refused, audit row written', async () => {
    const m = await createMember(t);
    await t.app.deps.db
      .insertInto('refresh_tokens')
      .values({
        member_id: m.id,
        family_id: '00000000-0000-4000-8000-000000000001',
        token_hash: `h-${m.id}`,
        expires_at: new Date(Date.now() + 3_600_000),
        rotated_at: null,
        revoked_at: null,
      })
      .execute();
    const r = await t.call<OpsMember>('POST', `/ops/api/v1/members/${m.id}/suspend`, {
      token: op.token,
      body: { reason: 'fraud report #12' },
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({
      id: m.id,
      status: 'SUSPENDED',
      suspendedReason: 'fraud report #12',
    });

    const tokens = await t.app.deps.db
      .selectFrom('refresh_tokens')
      .select('revoked_at')
      .where('member_id', '=', m.id)
      .execute();
    expect(tokens.every((x) => x.revoked_at !== null)).toBe(true);

    // Any guarded route now refuses the member's still-unexpired access token.
    const refused = await t.call('GET', '/ops/api/v1/summary', { token: m.token });
    expect(refused.status).toBe(403);
    expect(refused.body.returnMessage).toBe('MEMBER_SUSPENDED');

    const rows = await t.app.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_type', '=', 'member')
      .where('target_id', '=', String(m.id))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operator_id: op.id,
      action: 'member.suspend',
      reason: 'fraud report #12',
    });
    expect(Date.now() - new Date(rows[0]!.created_at).getTime()).toBeLessThan(60_000);

    const again = await t.call('POST', `/ops/api/v1/members/${m.id}/suspend`, {
      token: op.token,
      body: { reason: 'twice' },
    });
    expect(again.status).toBe(409);
    expect(again.body.returnMessage).toBe('INVALID_STATE');

    const back = await t.call<OpsMember>('POST', `/ops/api/v1/members/${m.id}/unsuspend`, {
      token: op.token,
      body: { reason: 'cleared' },
    });
    expect(back.status).toBe(200);
    expect(back.body.returnData).toMatchObject({ status: 'ACTIVE', suspendedReason: null });
    const log = await t.call<Page<OpsAuditEntry>>(
      'GET',
      `/ops/api/v1/audit-log?targetType=member&targetId=${m.id}`,
      { token: op.token },
    );
    expect(log.body.returnData.list.map((e) => e.action)).toEqual(['member.unsuspend', 'member.suspend']);
    expect(log.body.returnData.list[0]).toMatchObject({ operatorLoginId: op.loginId, reason: 'cleared' });
  });

  it('a suspended member can neither refresh a session nor sign in again until unsuspended', async () => {
    const m = await createMember(t);
    await t.app.deps.db
      .updateTable('members')
      .set({ password_hash: await hashPassword('Suspend!me1') })
      .where('id', '=', m.id)
      .execute();
    const signIn = () =>
      t.call<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/login', {
        body: { loginId: m.loginId, password: 'Suspend!me1' },
      });
    const session = await signIn();
    expect(session.status).toBe(200);
    await t.call('POST', `/ops/api/v1/members/${m.id}/suspend`, {
      token: op.token,
      body: { reason: 'chargeback' },
    });
    const refreshed = await t.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: session.body.returnData.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    const again = await signIn();
    expect(again.status).toBe(403);
    expect(again.body.returnMessage).toBe('MEMBER_SUSPENDED');
    await t.call('POST', `/ops/api/v1/members/${m.id}/unsuspend`, { token: op.token, body: {} });
    expect((await signIn()).status).toBe(200);
  });

  it('an operator cannot suspend themself; other operators can be suspended', async () => {
    const self = await t.call('POST', `/ops/api/v1/members/${op.id}/suspend`, {
      token: op.token,
      body: { reason: 'oops' },
    });
    expect(self.status).toBe(403);
    expect(self.body.returnMessage).toBe('FORBIDDEN');
    const op2 = await createMember(t, { role: 'OPERATOR' });
    const r = await t.call('POST', `/ops/api/v1/members/${op2.id}/suspend`, {
      token: op.token,
      body: { reason: 'lost laptop' },
    });
    expect(r.status).toBe(200);
    const refused = await t.call('GET', '/ops/api/v1/members', { token: op2.token });
    expect(refused.body.returnMessage).toBe('MEMBER_SUSPENDED');
  });

  it('unhappy paths: no reason, unknown member, unsuspend of an active member; nothing written', async () => {
    const before = await t.app.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const noReason = await t.call('POST', `/ops/api/v1/members/${member.id}/suspend`, {
      token: op.token,
      body: { reason: '   ' },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.returnData).toEqual({ fields: { reason: 'REQUIRED' } });
    const unknown = await t.call('POST', '/ops/api/v1/members/99999999/suspend', {
      token: op.token,
      body: { reason: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.returnMessage).toBe('NOT_FOUND_MEMBER_ID');
    const active = await t.call('POST', `/ops/api/v1/members/${member.id}/unsuspend`, { token: op.token });
    expect(active.status).toBe(409);
    const after = await t.app.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const still = await t.call<Page<OpsMember>>('GET', `/ops/api/v1/members?q=${member.loginId}`, {
      token: op.token,
    });
    expect(still.body.returnData.list[0]?.status).toBe('ACTIVE');
  });
});

describe('GET /ops/api/v1/members: a search counted up to SEARCH_COUNT_CAP (issue 27)', () => {
  it('counts a common name to 100 and says so (totalCapped); an unfiltered list and a rare name stay exact', async () => {
    await sql`
      insert into members (login_id, nickname, name, country_code, phone_e164, password_hash, kyc_level,
                           bank_name, account_no)
      select 'capsrch' || g, 'capsrchnick' || g, 'Common Yoon ' || g, '82', '+821069' || lpad(g::text, 6, '0'),
             'x', 1, 'KB국민은행', lpad(g::text, 12, '0')
      from generate_series(1, ${SEARCH_COUNT_CAP + 1}) g`.execute(t.app.deps.db);
    const get = (q: string) =>
      t.call<Page<OpsMember> & { totalCapped?: boolean }>('GET', `/ops/api/v1/members?q=${q}&size=20`, {
        token: op.token,
      });
    const common = (await get('common%20yoon')).body.returnData;
    expect(common.list).toHaveLength(20);
    expect(common.nextCursor).not.toBeNull();
    expect(common).toMatchObject({ totalCount: SEARCH_COUNT_CAP, totalCapped: true });
    const rare = (await get('common%20yoon%2010')).body.returnData; // 10, 100, 101
    expect(rare.totalCount).toBe(3);
    expect(rare.totalCapped).toBeUndefined();
    const all = await t.call<Page<OpsMember> & { totalCapped?: boolean }>('GET', '/ops/api/v1/members', {
      token: op.token,
    });
    expect(all.body.returnData.totalCount).toBeGreaterThan(SEARCH_COUNT_CAP + 1);
    expect(all.body.returnData.totalCapped).toBeUndefined();
  });
});
