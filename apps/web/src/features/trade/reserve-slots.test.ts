import { describe, expect, it } from 'vitest';
import { isReserveDateValid, reserveDateRange, reserveTimeSlots } from './reserve-slots';

// 2026-03-10 01:07 UTC = 10:07 in Seoul.
const NOW = Date.UTC(2026, 2, 10, 1, 7);

describe('reserve date and time (SPEC §2, §9: 15-minute steps, default list 30, Korean time)', () => {
  it('the default list steps 30 minutes, today only the future ones', () => {
    const today = reserveTimeSlots('2026-03-10', NOW);
    expect(today[0]).toBe('10:30');
    expect(today.at(-1)).toBe('23:30');
    expect(reserveTimeSlots('2026-03-11', NOW)).toHaveLength(48);
    expect(reserveTimeSlots('2026-03-11', NOW).every((s) => /^\d{2}:(00|30)$/.test(s))).toBe(true);
  });

  it('the fine list offers only the future 15-minute slots', () => {
    const slots = reserveTimeSlots('2026-03-10', NOW, 15);
    expect(slots[0]).toBe('10:15');
    expect(slots.at(-1)).toBe('23:45');
    expect(slots.every((s) => /^\d{2}:(00|15|30|45)$/.test(s))).toBe(true);
  });

  it('other days offer all 96 fine slots', () => {
    const slots = reserveTimeSlots('2026-03-11', NOW, 15);
    expect(slots).toHaveLength(96);
    expect(slots[0]).toBe('00:00');
  });

  it('the date range starts today (Seoul) and spans 30 days; others are invalid', () => {
    expect(reserveDateRange(NOW)).toEqual({ min: '2026-03-10', max: '2026-04-08' });
    expect(isReserveDateValid('2026-03-09', NOW)).toBe(false);
    expect(isReserveDateValid('2026-04-09', NOW)).toBe(false);
    expect(isReserveDateValid('2026-03-20', NOW)).toBe(true);
    expect(isReserveDateValid('20260320', NOW)).toBe(false);
  });
});
