import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { type App, buildApp } from '../../app.ts';
import { openDb } from '../../db/client.ts';
import { openSession } from '../identity/index.ts';
import { operator } from '../orders/test-kit.ts';

/**
 * The event stream lives no longer than its session and its access token (DECISIONS §21), over real HTTP with
 * a kept SSE parser. On PostgreSQL the session is ended on a second app instance on the same database (the
 * ending reaches the stream's instance through LISTEN/NOTIFY); on PGlite on the one embedded instance. Waits
 * are bounded well below the old behaviour (a stream outlived its session by up to one token lifetime, at
 * least 60 s), so a stream that does not end fails the test.
 */

const JWT_SECRET = 'session-end-test-secret-of-32-chars-or-more';
/** How long a stream may take to notice its ending: "within seconds". */
const ENDS_WITHIN_MS = 8_000;

let t: TestApp;
let other: App; // the instance where sessions end
let otherClose: () => Promise<void>;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  if (onPostgres) {
    const dbh = await openDb({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir });
    other = await buildApp(t.config, { dbh, serveWeb: false, skipStartupTasks: true });
    await other.ready();
    otherClose = async () => {
      await other.close();
      await dbh.close();
    };
  } else {
    other = t.app;
    otherClose = async () => undefined;
  }
});
afterAll(async () => {
  await otherClose?.();
  await t?.close();
});

/** An open event stream on `url`: what it received and whether the server ended it. */
async function openStream(url: string, token: string) {
  const ac = new AbortController();
  const res = await fetch(`${url}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: ac.signal,
  });
  const events: EventSourceMessage[] = [];
  let ended = false;
  if (res.body) {
    const reader = res.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          events.push(value);
        }
      } catch {
        // aborted by the test
      }
      ended = true;
    })();
  }
  return { res, events, ended: () => ended, close: () => ac.abort() };
}
type Stream = Awaited<ReturnType<typeof openStream>>;

/** The reason of the stream's closing `end` event. */
const endReason = (s: Stream) => {
  const last = s.events.at(-1);
  return last?.event === 'end' ? (JSON.parse(last.data) as { reason: string }).reason : null;
};

async function waitEnded(s: Stream, reason: string) {
  await vi.waitFor(() => expect(s.ended()).toBe(true), { timeout: ENDS_WITHIN_MS, interval: 50 });
  expect(endReason(s)).toBe(reason);
}

/** Calls the instance where sessions end. */
async function act(method: 'POST' | 'PUT' | 'GET', url: string, token: string | null, body?: unknown) {
  const res = await other.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    payload: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json() as { returnMessage: string } };
}

/** A second session of `m` (another device): its own refresh-token family. */
const anotherSession = (m: FixtureMember) => openSession(t.app.deps, { id: m.id, role: 'MEMBER' });

/** Proves the stream is still open: it is not ended and a heartbeat-free probe of its session answers 200. */
async function stillOpen(s: Stream, token: string) {
  expect(s.ended()).toBe(false);
  expect((await fetch(`${base}/my`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
}

describe(`the event stream ends with its session (${onPostgres ? 'ended on another instance' : 'PGlite'})`, () => {
  it('ends within seconds of logout; another session of the member keeps streaming', async () => {
    const m = await createMember(t);
    const phone = await anotherSession(m);
    const laptop = await anotherSession(m);
    const onPhone = await openStream(base, phone.accessToken);
    const onLaptop = await openStream(base, laptop.accessToken);
    expect([onPhone.res.status, onLaptop.res.status]).toEqual([200, 200]);

    expect(
      (await act('POST', '/api/v1/auth/logout', null, { refreshToken: phone.refreshToken })).status,
    ).toBe(200);
    await waitEnded(onPhone, 'SESSION_ENDED');
    await stillOpen(onLaptop, laptop.accessToken);
    const again = await openStream(base, phone.accessToken);
    expect(again.res.status).toBe(401);
    onLaptop.close();
  });

  it('ends the other sessions’ streams when the password changes; the session that changed it keeps its own', async () => {
    const m = await createMember(t);
    const stolen = await anotherSession(m);
    const own = await anotherSession(m);
    const theirs = await openStream(base, stolen.accessToken);
    const mine = await openStream(base, own.accessToken);
    const put = await act('PUT', '/my', own.accessToken, {
      nickName: m.nickname,
      countryCode: '82',
      phoneE164: m.phoneE164,
      bankName: 'KB국민은행',
      accountNo: '12345678901234',
      password: 'a-new-pass1',
      currentPassword: m.password,
    });
    expect(put.status).toBe(200);
    await waitEnded(theirs, 'SESSION_ENDED');
    await stillOpen(mine, own.accessToken);
    mine.close();
  });

  it('ends every stream of a member the operator suspends', async () => {
    const op = await operator(t);
    const m = await createMember(t);
    const s1 = await openStream(base, m.token);
    const s2 = await openStream(base, (await anotherSession(m)).accessToken);
    const r = await act('POST', `/ops/api/v1/members/${m.id}/suspend`, op.token, { reason: 'stream test' });
    expect(r.status).toBe(200);
    await waitEnded(s1, 'SESSION_ENDED');
    await waitEnded(s2, 'SESSION_ENDED');
    const again = await openStream(base, m.token);
    expect(again.res.status).toBe(403);
  });
});

describe.runIf(onPostgres)('an ending missed while the listener was down (PostgreSQL)', () => {
  it('is found by the recheck after the listener reconnects', async () => {
    const m = await createMember(t);
    const session = await anotherSession(m);
    const s = await openStream(base, session.accessToken);
    expect(s.res.status).toBe(200);
    const db = t.app.deps.db;
    // The stream's instance loses its LISTEN connection; the session is revoked while it is gone, so the
    // notification reaches nobody.
    const listeners = sql<{ pid: number }>`select pid from pg_stat_activity
      where datname = current_database() and query = 'listen trade_room' and pid <> pg_backend_pid()`;
    const before = (await listeners.execute(db)).rows.map((r) => r.pid);
    expect(before.length).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where pid in (${sql.join(before)})`.execute(db);
    await vi.waitFor(async () => {
      const left = (await listeners.execute(db)).rows.map((r) => r.pid);
      expect(left.filter((pid) => before.includes(pid))).toEqual([]);
    });
    const { sid } = await t.app.deps.tokens.verify(session.accessToken);
    await sql`update refresh_tokens set revoked_at = now() where family_id = ${sid}::uuid`.execute(db);
    await waitEnded(s, 'SESSION_ENDED');
  });
});

describe('the event stream ends when its access token expires', () => {
  let short: TestApp;
  let shortBase: string;
  beforeAll(async () => {
    short = await createTestApp({ ACCESS_TOKEN_TTL_SEC: '2', EVENTS_HEARTBEAT_SEC: '1' });
    shortBase = await short.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => short?.close());

  it('ends with `end` TOKEN_EXPIRED once the token is refused, and a fresh token streams again', async () => {
    const m = await createMember(short);
    const session = await openSession(short.app.deps, { id: m.id, role: 'MEMBER' });
    const s = await openStream(shortBase, session.accessToken);
    expect(s.res.status).toBe(200);
    await waitEnded(s, 'TOKEN_EXPIRED');
    // it ended because the token had expired: the same token is refused now
    const my = await short.call('GET', '/my', { token: session.accessToken });
    expect([my.status, my.body.returnMessage]).toEqual([401, 'TOKEN_EXPIRED']);
    const refreshed = await short.call<{ accessToken: string }>('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: session.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const next = await openStream(shortBase, refreshed.body.returnData.accessToken);
    expect(next.res.status).toBe(200);
    expect(next.ended()).toBe(false);
    next.close();
  });
});
