import { seoulToday } from '@p2p/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { RELAXED_LIMITS, type SignedUp, signupAndLogin } from '../identity/test-kit.ts';
import { outboxCode, reachLevel1, uploadKycDocument } from './test-kit.ts';

/*
 * Identity levels (DECISIONS §19): the identity check through the console provider (request -> code in the dev
 * outbox -> verify) and every refusal of it, the ID document upload (JPEG/PNG by content, 10 MB, re-encoded,
 * sealed at rest), the operator's queue, decisions (one winner) and image view.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...RELAXED_LIMITS });
});
afterAll(() => t?.close());

const myLevel = async (token: string) =>
  (await t.call<{ kycLevel: number }>('GET', '/my', { token })).body.returnData.kycLevel;

/** A birth date `years` before today in Seoul, shifted by `days`. */
function bornYearsAgo(years: number, days = 0): string {
  const d = new Date(`${seoulToday()}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const start = (m: SignedUp, body: Record<string, unknown>) =>
  t.call<{ expiresInSec: number }>('POST', '/api/v1/kyc/identity', { token: m.accessToken, body });
const verify = (m: SignedUp, code: string) =>
  t.call<{ level?: number; triesLeft?: number }>('POST', '/api/v1/kyc/identity/verify', {
    token: m.accessToken,
    body: { code },
  });
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

describe('identity check (level 1)', () => {
  it('walks request -> code to the phone -> verify; spaces in the name do not matter; level shows in /my', async () => {
    const m = await signupAndLogin(t);
    expect(await myLevel(m.accessToken)).toBe(0);
    const started = await start(m, { name: '  Kim   Test ', birthDate: '1990-01-01' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.returnData.expiresInSec).toBe(120);
    const code = await outboxCode(t, m.phone);
    const bad = await verify(m, wrong(code));
    expect([bad.status, bad.body.returnMessage, bad.body.returnData.triesLeft]).toEqual([
      400,
      'CODE_MISMATCH',
      4,
    ]);
    const ok = await verify(m, code);
    expect(ok.status).toBe(200);
    expect(ok.body.returnData.level).toBe(1);
    expect(await myLevel(m.accessToken)).toBe(1);
    const status = await t.call<{ verifiedName: string; level: number }>('GET', '/api/v1/kyc', {
      token: m.accessToken,
    });
    // the holds are off in this file's configuration: a purchase may go to an outside address (DECISIONS §19)
    expect(status.body.returnData).toMatchObject({
      level: 1,
      verifiedName: 'Kim Test',
      purchaseHeldUntil: null,
    });
    const again = await start(m, { name: 'Kim Test', birthDate: '1990-01-01' });
    expect([again.status, again.body.returnMessage]).toEqual([409, 'KYC_ALREADY_VERIFIED']);
    // the used code does not verify twice
    expect((await verify(m, code)).body.returnMessage).toBe('CODE_EXPIRED');
  });

  it('refuses a name that differs in the case of Latin letters or in letters (NAME_MISMATCH), storing nothing', async () => {
    const m = await signupAndLogin(t);
    for (const name of ['kim test', 'KIM TEST', 'Kim Tset', 'Kim']) {
      const r = await start(m, { name, birthDate: '1990-01-01' });
      expect([r.status, r.body.returnMessage], name).toEqual([422, 'NAME_MISMATCH']);
    }
    expect((await verify(m, '123456')).body.returnMessage).toBe('CODE_EXPIRED');
    expect(await myLevel(m.accessToken)).toBe(0);
  });

  it('refuses a future or impossible birth date (400) and anyone under 19 full years today in Seoul (422)', async () => {
    const m = await signupAndLogin(t);
    const tomorrow = bornYearsAgo(0, 1);
    const cases: [unknown, number, string, string | undefined][] = [
      [tomorrow, 400, 'VALIDATION_FAILED', 'DATE_IN_FUTURE'],
      ['2001-02-30', 400, 'VALIDATION_FAILED', 'DATE_INVALID'],
      ['19900101', 400, 'VALIDATION_FAILED', 'DATE_INVALID'],
      [19900101, 400, 'VALIDATION_FAILED', 'REQUIRED'],
      [bornYearsAgo(19, 1), 422, 'UNDERAGE', undefined],
      [bornYearsAgo(10), 422, 'UNDERAGE', undefined],
    ];
    for (const [birthDate, status, code, field] of cases) {
      const r = await t.call<{ fields?: Record<string, string>; minAge?: number }>(
        'POST',
        '/api/v1/kyc/identity',
        {
          token: m.accessToken,
          body: { name: 'Kim Test', birthDate },
        },
      );
      expect([r.status, r.body.returnMessage], String(birthDate)).toEqual([status, code]);
      if (field) expect(r.body.returnData.fields?.birthDate).toBeDefined();
      if (code === 'UNDERAGE') expect(r.body.returnData.minAge).toBe(19);
    }
    // 19 today: accepted
    expect((await start(m, { name: 'Kim Test', birthDate: bornYearsAgo(19) })).status).toBe(200);
  });

  it('allows 5 tries per request, then wants a new request; an expired code is refused', async () => {
    const m = await signupAndLogin(t);
    await start(m, { name: 'Kim Test', birthDate: '1985-12-31' });
    const code = await outboxCode(t, m.phone);
    const left: unknown[] = [];
    for (let i = 0; i < 5; i++) left.push((await verify(m, wrong(code))).body.returnData.triesLeft);
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const sixth = await verify(m, code);
    expect([sixth.status, sixth.body.returnMessage]).toEqual([400, 'CODE_TRIES_EXCEEDED']);
    expect(await myLevel(m.accessToken)).toBe(0);

    await start(m, { name: 'Kim Test', birthDate: '1985-12-31' });
    const fresh = await outboxCode(t, m.phone);
    await t.app.deps.db
      .updateTable('kyc_identity_requests')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('verified_at', 'is', null)
      .execute();
    const late = await verify(m, fresh);
    expect([late.status, late.body.returnMessage]).toEqual([400, 'CODE_EXPIRED']);
    expect(await myLevel(m.accessToken)).toBe(0);
  });

  it('refuses malformed codes and bodies with 400 and a visitor with 401', async () => {
    const m = await signupAndLogin(t);
    for (const body of [{ code: '12345' }, { code: 'abcdef' }, {}, { code: 123456 }]) {
      const r = await t.call('POST', '/api/v1/kyc/identity/verify', { token: m.accessToken, body });
      expect([r.status, r.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    }
    for (const body of [
      { name: '', birthDate: '1990-01-01' },
      { name: 'Kim\u202eTest', birthDate: '1990-01-01' },
    ]) {
      const r = await t.call('POST', '/api/v1/kyc/identity', { token: m.accessToken, body });
      expect([r.status, r.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const visitor = await t.call('POST', '/api/v1/kyc/identity', {
      body: { name: 'Kim', birthDate: '1990-01-01' },
    });
    expect(visitor.status).toBe(401);
  });
});

describe('rate budget', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      ...RELAXED_LIMITS,
      KYC_VERIFY_PER_HOUR: '2',
      KYC_REQUESTS_PER_HOUR: '1',
    });
  });
  afterAll(() => limited?.close());

  it('spends the member’s budget before any lookup: checks and requests beyond it get 429', async () => {
    const m = await signupAndLogin(limited);
    const v = () =>
      limited.call('POST', '/api/v1/kyc/identity/verify', { token: m.accessToken, body: { code: '123456' } });
    expect((await v()).body.returnMessage).toBe('CODE_EXPIRED');
    expect((await v()).body.returnMessage).toBe('CODE_EXPIRED');
    expect((await v()).status).toBe(429);
    const s = (name: string) =>
      limited.call('POST', '/api/v1/kyc/identity', {
        token: m.accessToken,
        body: { name, birthDate: '1990-01-01' },
      });
    expect((await s('kim test')).body.returnMessage).toBe('NAME_MISMATCH');
    expect((await s('Kim Test')).status).toBe(429);
  });
});

async function idImage(format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const img = sharp({
    create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 60, b: 40 } },
  });
  if (format === 'png') return img.png().toBuffer();
  if (format === 'webp') return img.webp().toBuffer();
  return img
    .jpeg()
    .withExif({ IFD0: { Copyright: 'GPS-SECRET-123', Make: 'PhoneCam' } })
    .toBuffer();
}

describe('ID documents (level 2)', () => {
  it('needs level 1 first, then takes a JPEG, strips its metadata and seals it at rest', async () => {
    const m = await signupAndLogin(t);
    const jpeg = await idImage('jpeg');
    const early = await uploadKycDocument(t, m.accessToken, jpeg);
    expect([early.status, early.body.returnMessage]).toEqual([422, 'KYC_REQUIRED']);
    expect(early.body.returnData).toEqual({ level: 1 });
    await reachLevel1(t, { token: m.accessToken, phone: m.phone, name: 'Kim Test' });

    const up = await uploadKycDocument(t, m.accessToken, jpeg);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.returnData.status).toBe('PENDING');
    const row = await t.app.deps.db
      .selectFrom('kyc_documents')
      .select(['sealed', 'byte_size'])
      .where('id', '=', up.body.returnData.id)
      .executeTakeFirstOrThrow();
    // what is stored is not an image: sharp cannot read it, no JPEG marker, no metadata text in it
    const sealed = Buffer.from(row.sealed); // PGlite reads bytea as a Uint8Array, pg as a Buffer
    await expect(sharp(sealed).metadata()).rejects.toThrow();
    expect(sealed.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(sealed.includes(Buffer.from('GPS-SECRET-123'))).toBe(false);
    expect(sealed.includes(Buffer.from('PhoneCam'))).toBe(false);

    const second = await uploadKycDocument(t, m.accessToken, await idImage('png'));
    expect([second.status, second.body.returnMessage]).toEqual([409, 'KYC_DOCUMENT_PENDING']);
  });

  it('refuses what is not a JPEG or PNG by content, a missing file, and more than 10 MB', async () => {
    const m = await signupAndLogin(t);
    await reachLevel1(t, { token: m.accessToken, phone: m.phone, name: 'Kim Test' });
    const cases: [Buffer, string, number, string][] = [
      [Buffer.from('%PDF-1.7 not an image at all'), 'file', 422, 'IMAGE_UNSUPPORTED'],
      [
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]),
        'file',
        422,
        'IMAGE_UNSUPPORTED',
      ],
      [await idImage('webp'), 'file', 422, 'IMAGE_UNSUPPORTED'],
      [await idImage('jpeg'), 'photo', 400, 'IMAGE_REQUIRED'],
      [Buffer.alloc(10 * 1024 * 1024 + 1, 1), 'file', 413, 'IMAGE_TOO_LARGE'],
    ];
    for (const [file, field, status, code] of cases) {
      const r = await uploadKycDocument(t, m.accessToken, file, field);
      expect([r.status, r.body.returnMessage], code).toEqual([status, code]);
    }
    const none = await t.app.deps.db
      .selectFrom('kyc_documents')
      .innerJoin('members', 'members.id', 'kyc_documents.member_id')
      .select('kyc_documents.id')
      .where('members.login_id', '=', m.loginId)
      .execute();
    expect(none).toEqual([]);
  });

  it('queues it for operators: one of parallel approvals wins, the member reaches level 2, the image opens', async () => {
    const op = await createMember(t, { role: 'OPERATOR' });
    const m = await signupAndLogin(t);
    await reachLevel1(t, { token: m.accessToken, phone: m.phone, name: 'Kim Test' });
    const up = await uploadKycDocument(t, m.accessToken, await idImage('jpeg'));
    const id = up.body.returnData.id;

    const queue = await t.call<{ list: { id: number; loginId: string; verifiedName: string }[] }>(
      'GET',
      '/ops/api/v1/kyc?status=PENDING',
      { token: op.token },
    );
    expect(queue.body.returnData.list.find((d) => d.id === id)).toMatchObject({
      loginId: m.loginId,
      verifiedName: 'Kim Test',
    });
    const memberTry = await t.call('POST', `/ops/api/v1/kyc/${id}/approve`, { token: m.accessToken });
    expect(memberTry.status).toBe(403);

    const img = await t.app.inject({
      method: 'GET',
      url: `/ops/api/v1/kyc/${id}/image`,
      headers: { authorization: `Bearer ${op.token}` },
    });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.format, meta.width, meta.exif]).toEqual(['jpeg', 320, undefined]);
    const asMember = await t.app.inject({
      method: 'GET',
      url: `/ops/api/v1/kyc/${id}/image`,
      headers: { authorization: `Bearer ${m.accessToken}` },
    });
    expect(asMember.statusCode).toBe(403);

    const all = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? t.call('POST', `/ops/api/v1/kyc/${id}/approve`, { token: op.token })
          : t.call('POST', `/ops/api/v1/kyc/${id}/reject`, { token: op.token, body: { reason: 'blurry' } }),
      ),
    );
    const statuses = all.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const audits = await t.app.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'kyc_document')
      .where('target_id', '=', String(id))
      .execute();
    expect(audits.filter((a) => a.action !== 'kyc.view')).toHaveLength(1);
    const won = all.find((r) => r.status === 200) as { body: { returnData: { status: string } } };
    expect(await myLevel(m.accessToken)).toBe(won.body.returnData.status === 'APPROVED' ? 2 : 1);
    const unknown = await t.call('POST', '/ops/api/v1/kyc/999999/approve', { token: op.token });
    expect(unknown.status).toBe(404);
  });

  it('approves to level 2; a rejection keeps level 1, tells the reason and lets the member upload again', async () => {
    const op = await createMember(t, { role: 'OPERATOR' });
    const m = await signupAndLogin(t);
    await reachLevel1(t, { token: m.accessToken, phone: m.phone, name: 'Kim Test' });
    const first = await uploadKycDocument(t, m.accessToken, await idImage('png'));
    const rej = await t.call('POST', `/ops/api/v1/kyc/${first.body.returnData.id}/reject`, {
      token: op.token,
      body: { reason: 'the photo is cut off' },
    });
    expect(rej.status).toBe(200);
    const seen = await t.call<{ level: number; document: { status: string; reason: string } }>(
      'GET',
      '/api/v1/kyc',
      {
        token: m.accessToken,
      },
    );
    expect(seen.body.returnData).toMatchObject({
      level: 1,
      document: { status: 'REJECTED', reason: 'the photo is cut off' },
    });
    const noReason = await t.call('POST', `/ops/api/v1/kyc/${first.body.returnData.id}/reject`, {
      token: op.token,
      body: { reason: ' ' },
    });
    expect(noReason.status).toBe(400);
    const second = await uploadKycDocument(t, m.accessToken, await idImage('jpeg'));
    expect(second.status).toBe(200);
    const ok = await t.call('POST', `/ops/api/v1/kyc/${second.body.returnData.id}/approve`, {
      token: op.token,
    });
    expect(ok.status).toBe(200);
    expect(await myLevel(m.accessToken)).toBe(2);
    const more = await uploadKycDocument(t, m.accessToken, await idImage('jpeg'));
    expect([more.status, more.body.returnMessage]).toEqual([409, 'KYC_ALREADY_VERIFIED']);
  });
});
