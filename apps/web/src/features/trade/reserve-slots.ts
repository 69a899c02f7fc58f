import { DATE_FORMAT, TIME_FORMAT } from '@p2p/contract/limits.ts';
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

/** SPEC §9 "Reserve time step 15 minutes (default time list 30)": the list offered first steps 30 minutes. */
export const DEFAULT_RESERVE_LIST_STEP_MIN = 30;

/**
 * The HH:mm slots of `date` every `stepMin` minutes (30 for the default list, LIMITS.reserveStepMin = 15 for
 * the fine one); on today only those strictly after now.
 */
export function reserveTimeSlots(
  date: string,
  nowMs: number,
  stepMin = DEFAULT_RESERVE_LIST_STEP_MIN,
): string[] {
  const now = seoulWallClock(nowMs);
  const today = format(now, DATE_FORMAT);
  const slots: string[] = [];
  let t = startOfDay(now);
  for (let i = 0; i < (24 * 60) / stepMin; i += 1) {
    if (date !== today || t > now) slots.push(format(t, TIME_FORMAT));
    t = addMinutes(t, stepMin);
  }
  return slots;
}
