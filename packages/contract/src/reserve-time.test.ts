import { describe, expect, it } from 'vitest';
import { checkReserveTime, RESERVE_MAX_AHEAD_MS, SEOUL_OFFSET_MS, seoulWallClock } from './reserve-time.ts';

// 2026-03-10 01:07 UTC = 10:07 in Seoul.
const NOW = Date.UTC(2026, 2, 10, 1, 7);

describe('Seoul wall time (SPEC §9)', () => {
  it('shows the Seoul hour and minute in local fields whatever the machine zone', () => {
    const wall = seoulWallClock(NOW);
    expect([wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes()]).toEqual(
      [2026, 2, 10, 10, 7],
    );
  });

  it('crosses midnight in Seoul before UTC does', () => {
    const wall = seoulWallClock(Date.UTC(2026, 2, 10, 15, 30));
    expect([wall.getDate(), wall.getHours(), wall.getMinutes()]).toEqual([11, 0, 30]);
  });
});

describe('checkReserveTime (SPEC §5, §9; DECISIONS §11)', () => {
  it('takes neither as an instant purchase and one alone as PAIR', () => {
    expect(checkReserveTime(undefined, null, NOW)).toEqual({ ok: true, atMs: null });
    expect(checkReserveTime('2026-03-11', undefined, NOW)).toEqual({ ok: false, reason: 'PAIR' });
    expect(checkReserveTime(null, '10:15', NOW)).toEqual({ ok: false, reason: 'PAIR' });
  });

  it('reads the date and time as Seoul wall time', () => {
    expect(checkReserveTime('2026-03-10', '10:15', NOW)).toEqual({
      ok: true,
      atMs: Date.UTC(2026, 2, 10, 10, 15) - SEOUL_OFFSET_MS,
    });
  });

  it('refuses impossible dates and times, off-step minutes, the past and beyond the window', () => {
    const reason = (d: string, t: string) => {
      const r = checkReserveTime(d, t, NOW);
      return r.ok ? null : r.reason;
    };
    expect(reason('2026-02-30', '10:00')).toBe('DATE_INVALID');
    expect(reason('2026-03-11', '24:00')).toBe('DATE_INVALID');
    expect(reason('20260311', '10:00')).toBe('DATE_INVALID');
    expect(reason('2026-03-11', '10:10')).toBe('TIME_STEP');
    expect(reason('2026-03-11', '10:60')).toBe('TIME_STEP');
    expect(reason('2026-03-10', '10:00')).toBe('PAST');
    expect(reason('2026-04-10', '10:00')).toBe('TOO_FAR');
  });

  it('accepts the last instant inside the window and refuses the next slot', () => {
    const lastWall = NOW + RESERVE_MAX_AHEAD_MS + SEOUL_OFFSET_MS - 7 * 60_000; // 2026-04-09 10:00 Seoul
    const iso = new Date(lastWall).toISOString();
    expect(checkReserveTime(iso.slice(0, 10), iso.slice(11, 16), NOW).ok).toBe(true);
    expect(checkReserveTime(iso.slice(0, 10), '10:15', NOW)).toEqual({ ok: false, reason: 'TOO_FAR' });
  });
});
