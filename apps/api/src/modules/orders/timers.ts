import type { Db } from '../../db/client.ts';
import { everyInterval } from '../../interval-job.ts';
import { dueOrderIds, isOrderDue } from './repo.ts';
import { settleOrder } from './transitions.ts';

/**
 * The order timers (DECISIONS §11, §14): expiry (REQUESTED past paymentDeadline -> EXPIRED) and escalation
 * (PAID past releaseDeadline -> DISPUTED). Every API instance runs them on an interval; each due order is
 * settled in its own transaction under its listing's and its own row lock taken with SKIP LOCKED, and the
 * state is re-read under the lock, so however many instances sweep at once each order moves exactly once
 * and no instance waits behind another. Reads settle the orders they show too (settleDueFor), so a late
 * timer never shows a dead order as live. Why row locks and not a job library: docs/engineering-log.md.
 */

/** How many due orders one sweep takes (the next tick takes the rest). */
const BATCH = 100;

/**
 * One sweep: settles up to BATCH due orders, skipping rows another transaction holds. Returns how many
 * this call moved. An error on one order is logged through `onError` and the sweep goes on.
 */
export async function runOrderTimers(
  db: Db,
  onError?: (err: unknown, orderId: number) => void,
): Promise<number> {
  let moved = 0;
  for (const id of await dueOrderIds(db, BATCH)) {
    try {
      if (await settleOrder(db, id, true)) moved++;
    } catch (err) {
      onError?.(err, id);
    }
  }
  return moved;
}

/**
 * Settles every due order of one member (buyer or seller) before a read or a limit check answers, waiting
 * for locks (a concurrent move finishes first, then the order is re-read). Returns how many moved.
 */
export async function settleDueFor(db: Db, memberId: number): Promise<number> {
  let moved = 0;
  for (const id of await dueOrderIds(db, 1000, memberId)) if (await settleOrder(db, id)) moved++;
  return moved;
}

/** Settles one order before it is shown (no-op unless its deadline has passed). */
export async function settleBeforeRead(db: Db, orderId: number): Promise<void> {
  if (await isOrderDue(db, orderId)) await settleOrder(db, orderId);
}

/**
 * Starts the interval timer of this instance; the returned stop() clears it and waits for a sweep in
 * progress (the app's onClose hook calls it, so closing never leaves a transaction running).
 */
export function startOrderTimers(
  db: Db,
  intervalMs: number,
  log: { error: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  const sweep = () => runOrderTimers(db, (err, orderId) => log.error({ err, orderId }, 'order timer failed'));
  return everyInterval(intervalMs, sweep, (err) => log.error({ err }, 'order timer sweep failed'));
}
