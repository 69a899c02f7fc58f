import { LIMITS } from '@p2p/contract';
import { AppError } from '../../errors/index.ts';

// Asia/Seoul has kept UTC+9 without daylight saving since 1988, so a fixed offset is exact here.
const SEOUL_OFFSET_MS = 9 * 3600_000;
/** How far ahead a reservation may be (a limit on everything; SPEC gives none). */
export const RESERVE_MAX_AHEAD_MS = 30 * 24 * 3600_000;

const invalid = (reason: string) => new AppError('RESERVE_TIME_INVALID', { reason });

/**
 * Checks a reserve purchase's deposit time (SPEC §5, §9): reserveDate yyyy-MM-dd and reserveTime HH:mm,
 * Asia/Seoul wall time, minutes on a 15-minute step, strictly after `nowMs` and at most 30 days ahead.
 * Both absent = an instant purchase (returns null). Throws 422 RESERVE_TIME_INVALID with a reason
 * (PAIR, DATE_INVALID, TIME_STEP, PAST, TOO_FAR). Returns the reserved instant otherwise.
 */
export function checkReserve(
  date: string | null | undefined,
  time: string | null | undefined,
  nowMs: number,
): Date | null {
  if (!date && !time) return null;
  if (!date || !time) throw invalid('PAIR');
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) throw invalid('DATE_INVALID');
  const num = (s: string | undefined) => Number.parseInt(s ?? '', 10);
  const y = num(d[1]);
  const mo = num(d[2]);
  const day = num(d[3]);
  const h = num(t[1]);
  const mi = num(t[2]);
  const wall = Date.UTC(y, mo - 1, day, h, mi);
  const back = new Date(wall);
  // Date.UTC rolls 2025-02-30 over to March: a round trip catches impossible dates and times.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== day || h > 23) {
    throw invalid('DATE_INVALID');
  }
  if (mi > 59 || mi % LIMITS.reserveStepMin !== 0) throw invalid('TIME_STEP');
  const at = wall - SEOUL_OFFSET_MS;
  if (at <= nowMs) throw invalid('PAST');
  if (at - nowMs > RESERVE_MAX_AHEAD_MS) throw invalid('TOO_FAR');
  return new Date(at);
}
