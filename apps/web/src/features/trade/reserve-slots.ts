import { DATE_FORMAT, LIMITS, TIME_FORMAT } from '@p2p/contract/limits.ts';
import { RESERVE_MAX_DAYS, seoulWallClock } from '@p2p/contract/reserve-time.ts';
import { addDays, addMinutes, format, startOfDay } from 'date-fns';

/*
 * The reserve purchase's deposit date and 15-minute time slots (SPEC §2, §9), in Korean wall time: the
 * offset and the 30-day window are the contract's (reserve-time.ts), the ones the API checks against.
 */

/** The first and last selectable dates, yyyy-MM-dd. */
export function reserveDateRange(nowMs: number): { min: string; max: string } {
  const today = seoulWallClock(nowMs);
  return { min: format(today, DATE_FORMAT), max: format(addDays(today, RESERVE_MAX_DAYS - 1), DATE_FORMAT) };
}

/** True for a yyyy-MM-dd inside the selectable range (else 'Date input not valid.'). */
export function isReserveDateValid(date: string, nowMs: number): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const { min, max } = reserveDateRange(nowMs);
  return date >= min && date <= max;
}

/** The HH:mm slots of `date` every 15 minutes; on today only those strictly after now. */
export function reserveTimeSlots(date: string, nowMs: number): string[] {
  const now = seoulWallClock(nowMs);
  const today = format(now, DATE_FORMAT);
  const slots: string[] = [];
  let t = startOfDay(now);
  for (let i = 0; i < (24 * 60) / LIMITS.reserveStepMin; i += 1) {
    if (date !== today || t > now) slots.push(format(t, TIME_FORMAT));
    t = addMinutes(t, LIMITS.reserveStepMin);
  }
  return slots;
}
