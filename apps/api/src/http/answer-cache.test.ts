import { describe, expect, it } from 'vitest';
import { AnswerCache, answerOf } from './answer-cache.ts';

/** A load the test finishes by hand, counting how often it ran. */
function gate() {
  let runs = 0;
  const pending: ((body: string) => void)[] = [];
  return {
    load: () => {
      runs++;
      return new Promise<string>((r) => pending.push(r));
    },
    finish: (body: string) => {
      for (const r of pending.splice(0)) r(body);
    },
    runs: () => runs,
  };
}

describe('AnswerCache', () => {
  it('runs one load for a burst of misses of one key and keeps its answer', async () => {
    const c = new AnswerCache({ maxAgeMs: 1_000, maxEntries: 10 });
    const g = gate();
    const burst = Array.from({ length: 50 }, () => c.get('k', g.load));
    g.finish('{"a":1}');
    const answers = await Promise.all(burst);
    expect(g.runs()).toBe(1);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    expect(await c.get('k', g.load)).toEqual(answerOf('{"a":1}'));
    expect(g.runs()).toBe(1);
    expect(c.stats).toMatchObject({ loads: 1, joined: 49, hits: 1 });
  });

  it('does not keep a load that started before an invalidation, and starts a new one after it', async () => {
    const c = new AnswerCache({ maxAgeMs: 1_000, maxEntries: 10 });
    const old = gate();
    const waiting = c.get('k', old.load);
    c.invalidate();
    const fresh = gate();
    const after = c.get('k', fresh.load);
    old.finish('"old"');
    fresh.finish('"new"');
    expect((await waiting).body).toBe('"old"');
    expect((await after).body).toBe('"new"');
    expect((await c.get('k', gate().load)).body).toBe('"new"');
  });

  it('expires an entry after maxAgeMs counted from the start of its load, and keeps no errors', async () => {
    let now = 0;
    const c = new AnswerCache({ maxAgeMs: 1_000, maxEntries: 10, now: () => now });
    await c.get('k', async () => '"1"');
    now = 999;
    expect((await c.get('k', async () => '"2"')).body).toBe('"1"');
    now = 1_000;
    expect((await c.get('k', async () => '"2"')).body).toBe('"2"');
    await expect(
      c.get('e', async () => {
        throw new Error('db down');
      }),
    ).rejects.toThrow('db down');
    expect((await c.get('e', async () => '"ok"')).body).toBe('"ok"');
  });

  it('loads every time when off or not usable, and drops the oldest entry past maxEntries', async () => {
    let usable = false;
    const c = new AnswerCache({ maxAgeMs: 1_000, maxEntries: 2, usable: () => usable });
    let n = 0;
    const load = async () => String(++n);
    await c.get('a', load);
    await c.get('a', load);
    expect(n).toBe(2);
    usable = true;
    await c.get('a', load);
    await c.get('b', load);
    await c.get('c', load);
    expect(n).toBe(5);
    await c.get('a', load);
    expect(n).toBe(6);
    await c.get('c', load);
    expect(n).toBe(6);
    const off = new AnswerCache({ maxAgeMs: 0, maxEntries: 2 });
    await off.get('a', load);
    await off.get('a', load);
    expect(n).toBe(8);
  });
});
