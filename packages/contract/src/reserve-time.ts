import { LIMITS } from './limits.ts';

/**
 * Korean wall time and the reserve purchase's window (SPEC §2 /purchase, §5, §9; DECISIONS §11: a reserve
 * order's payment deadline runs from the reserved KST instant). The web app offers the dates and slots, the
 * API checks them: both read these.
 *
 * Asia/Seoul has kept UTC+9 without daylight saving since 1988, so a fixed offset is exact.
 */
export const SEOUL_OFFSET_MS = 9 * 3_600_000;

/** How many days a reservation may reach, today (Seoul) included; SPEC gives none, a limit on everything. */
export const RESERVE_MAX_DAYS = 30;

/** How far after now a reserved instant may be, in ms (RESERVE_MAX_DAYS days). */
export const RESERVE_MAX_AHEAD_MS = RESERVE_MAX_DAYS * 24 * 3_600_000;

/**
 * A Date whose local fields (getHours, date-fns `format`) show the Seoul wall time of `nowMs`, whatever the
 * machine's time zone: for formatting and slot arithmetic only, never as an instant.
 */
export function seoulWallClock(nowMs: number): Date {
  const localOffsetMin = new Date(nowMs).getTimezoneOffset();
  return new Date(nowMs + SEOUL_OFFSET_MS + localOffsetMin * 60_000);
}

/** Why a reserve date and time are refused (the reason of 422 RESERVE_TIME_INVALID). */
export type ReserveInvalidReason = 'PAIR' | 'DATE_INVALID' | 'TIME_STEP' | 'PAST' | 'TOO_FAR';

/** A checked reservation: the reserved instant (ms since epoch, null for an instant purchase) or the reason. */
export type ReserveCheck = { ok: true; atMs: number | null } | { ok: false; reason: ReserveInvalidReason };

const num = (s: string | undefined) => Number.parseInt(s ?? '', 10);

/**
 * Checks a reserve purchase's deposit time (SPEC §5, §9): `date` yyyy-MM-dd and `time` HH:mm in Seoul wall
 * time, minutes on the LIMITS.reserveStepMin step, strictly after `nowMs` and at most RESERVE_MAX_AHEAD_MS
 * ahead. Both absent = an instant purchase (`atMs: null`); one of the two = PAIR; an impossible date or
 * time (2025-02-30, 24:00) = DATE_INVALID. Never throws.
 */
export function checkReserveTime(
  date: string | null | undefined,
  time: string | null | undefined,
  nowMs: number,
): ReserveCheck {
  if (!date && !time) return { ok: true, atMs: null };
  if (!date || !time) return { ok: false, reason: 'PAIR' };
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return { ok: false, reason: 'DATE_INVALID' };
  const [y, mo, day, h, mi] = [num(d[1]), num(d[2]), num(d[3]), num(t[1]), num(t[2])];
  const wall = Date.UTC(y, mo - 1, day, h, mi);
  const back = new Date(wall);
  // Date.UTC rolls 2025-02-30 over to March: a round trip catches impossible dates and times.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== day || h > 23) {
    return { ok: false, reason: 'DATE_INVALID' };
  }
  if (mi > 59 || mi % LIMITS.reserveStepMin !== 0) return { ok: false, reason: 'TIME_STEP' };
  const at = wall - SEOUL_OFFSET_MS;
  if (at <= nowMs) return { ok: false, reason: 'PAST' };
  if (at - nowMs > RESERVE_MAX_AHEAD_MS) return { ok: false, reason: 'TOO_FAR' };
  return { ok: true, atMs: at };
}
