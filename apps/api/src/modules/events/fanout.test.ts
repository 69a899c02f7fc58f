import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { parseMessage } from './bus.ts';

/**
 * One NOTIFY per statement (028_event_notify_per_statement.sql): a statement's rows travel in the payload when
 * few, else as id runs the bus reads back. Over real HTTP streams: every row reaches its member's stream once and
 * in id order, whichever way it travelled, and a row too big for a NOTIFY payload gets through too.
 */

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ EVENTS_HEARTBEAT_SEC: '30' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

async function openStream(token: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: ac.signal,
  });
  const events: EventSourceMessage[] = [];
  const reader = res.body
    ?.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  void (async () => {
    try {
      for (;;) {
        const r = await reader?.read();
        if (!r || r.done) break;
        events.push(r.value);
      }
    } catch {
      // aborted by the test
    }
  })();
  return { events, close: () => ac.abort() };
}

type Stream = Awaited<ReturnType<typeof openStream>>;
const ns = (s: Stream) =>
  s.events.filter((e) => e.event === 'order').map((e) => JSON.parse(e.data).n as number);
const ids = (s: Stream) => s.events.filter((e) => e.event === 'order').map((e) => Number(e.id));

/** Three members with a live stream each (a first event reached every one, so the hub has them registered). */
async function threeStreams() {
  const members = [await createMember(t), await createMember(t), await createMember(t)];
  const streams = await Promise.all(members.map((m) => openStream(m.token)));
  await vi.waitFor(
    async () => {
      await sql`insert into member_events (member_id, type, data)
        select m, 'ops', '{}'::jsonb from unnest(${members.map((m) => m.id)}::bigint[]) m`.execute(
        t.app.deps.db,
      );
      for (const s of streams) expect(s.events.some((e) => e.event === 'ops')).toBe(true);
    },
    { timeout: 10_000, interval: 300 },
  );
  return { members, streams };
}

describe('live events: one NOTIFY per statement', () => {
  it('delivers 1,000 rows of one statement, a few more of the same commit and a 9 kB row: each once, in order', async () => {
    const { members, streams } = await threeStreams();
    const memberIds = members.map((m) => m.id);
    await t.app.deps.db.transaction().execute(async (tx) => {
      // 1,000 rows (read back by id runs), then 3 rows (in the payload), in one commit
      await sql`insert into member_events (member_id, type, data)
        select (${memberIds}::bigint[])[1 + g % 3], 'order', jsonb_build_object('n', g)
        from generate_series(0, 999) g`.execute(tx);
      await sql`insert into member_events (member_id, type, data)
        select (${memberIds}::bigint[])[1 + g % 3], 'order', jsonb_build_object('n', g)
        from generate_series(1000, 1002) g`.execute(tx);
    });
    // a row bigger than a NOTIFY payload may be (8,000 bytes): 010's row trigger could not announce it
    await sql`insert into member_events (member_id, type, data)
      values (${memberIds[0]}, 'order', jsonb_build_object('n', 2000, 'text', repeat('x', 9000)))`.execute(
      t.app.deps.db,
    );
    const want = (k: number) => [
      ...Array.from({ length: 1003 }, (_, n) => n).filter((n) => n % 3 === k),
      ...(k === 0 ? [2000] : []),
    ];
    await vi.waitFor(() => expect(streams.map(ns)).toEqual([want(0), want(1), want(2)]), { timeout: 15_000 });
    for (const s of streams) {
      const seen = ids(s);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
    expect(streams[0]?.events.at(-1)?.data).toContain('x'.repeat(9000));
    for (const s of streams) s.close();
  });

  it('splits a statement whose id runs do not fit one payload over several NOTIFYs, in order', async () => {
    const { members, streams } = await threeStreams();
    const memberIds = members.map((m) => m.id);
    // 1,500 ids two apart (1,500 runs, about 40 kB of runs): only ids set by hand are not consecutive. Far above
    // the sequence, so this test goes last in the file.
    await sql`insert into member_events (id, member_id, type, data) overriding system value
      select 1000000000000 + 2 * g, (${memberIds}::bigint[])[1 + g % 3], 'order', jsonb_build_object('n', g)
      from generate_series(0, 1499) g`.execute(t.app.deps.db);
    const want = (k: number) => Array.from({ length: 1500 }, (_, n) => n).filter((n) => n % 3 === k);
    await vi.waitFor(() => expect(streams.map(ns)).toEqual([want(0), want(1), want(2)]), { timeout: 15_000 });
    for (const s of streams) expect(ids(s)).toEqual(ns(s).map((n) => 1000000000000 + 2 * n));
    for (const s of streams) s.close();
  });
});

describe('parseMessage', () => {
  it('reads rows, id runs, session ends and 010 single rows; ignores what it does not know', () => {
    expect(parseMessage('{"b":[{"id" : 7, "m" : "3", "t" : "order", "d" : {"n": 1}}]}')).toEqual({
      kind: 'events',
      events: [{ id: 7, memberId: 3, type: 'order', data: { n: 1 } }],
    });
    expect(parseMessage('{"r":[[10,20],["30","30"]]}')).toEqual({
      kind: 'runs',
      runs: [
        [10, 20],
        [30, 30],
      ],
    });
    expect(parseMessage('{"end":"fam","m":5}')).toEqual({ kind: 'end', end: { memberId: 5, sid: 'fam' } });
    expect(parseMessage('{"end":null,"m":5}')).toEqual({ kind: 'end', end: { memberId: 5, sid: null } });
    expect(parseMessage('{"id":8,"m":null,"t":"ops","d":{}}')).toEqual({
      kind: 'events',
      events: [{ id: 8, memberId: null, type: 'ops', data: {} }],
    });
    for (const bad of [undefined, '', 'not json', '{}', '[]', 'null', '{"end":"x"}']) {
      expect(parseMessage(bad)).toBeNull();
    }
  });
});
