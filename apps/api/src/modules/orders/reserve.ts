import { checkReserveTime } from '@p2p/contract';
import { AppError } from '../../errors/index.ts';

/**
 * Checks a reserve purchase's deposit time with the contract's rule (`checkReserveTime`, SPEC §5, §9):
 * Seoul wall time on a 15-minute step, strictly after `nowMs`, at most 30 days ahead. Both absent = an
 * instant purchase (returns null). Throws 422 RESERVE_TIME_INVALID with the reason (PAIR, DATE_INVALID,
 * TIME_STEP, PAST, TOO_FAR). Returns the reserved instant otherwise.
 */
export function checkReserve(
  date: string | null | undefined,
  time: string | null | undefined,
  nowMs: number,
): Date | null {
  const r = checkReserveTime(date, time, nowMs);
  if (!r.ok) throw new AppError('RESERVE_TIME_INVALID', { reason: r.reason });
  return r.atMs === null ? null : new Date(r.atMs);
}
