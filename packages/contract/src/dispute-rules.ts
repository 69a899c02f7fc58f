/**
 * The order protocol's timing and dispute rules (DECISIONS §11) that the API enforces and the web app shows.
 */

/**
 * The protocol's default windows in seconds (DECISIONS §11; the API's ORDER_PAYMENT_WINDOW_SEC,
 * ORDER_DISPUTE_AFTER_SEC and ORDER_RELEASE_WINDOW_SEC override them): a REQUESTED order expires
 * `paymentWindowSec` after it was placed (a reserve order: after its reserved instant); once PAID the buyer
 * may dispute after `disputeAfterSec` and the order escalates to DISPUTED after `releaseWindowSec`.
 */
export const ORDER_TIMING_DEFAULTS = {
  paymentWindowSec: 1800,
  disputeAfterSec: 900,
  releaseWindowSec: 3600,
} as const;

/** A dispute statement's bounds in characters after trimming (DECISIONS §11: 10-2000). */
export const DISPUTE_STATEMENT_MIN = 10;
export const DISPUTE_STATEMENT_MAX = 2000;

/** A statement's problem (TOO_SHORT / TOO_LONG after trimming), or undefined when it may be sent. */
export function disputeStatementError(text: string): 'TOO_SHORT' | 'TOO_LONG' | undefined {
  const n = text.trim().length;
  if (n < DISPUTE_STATEMENT_MIN) return 'TOO_SHORT';
  return n > DISPUTE_STATEMENT_MAX ? 'TOO_LONG' : undefined;
}

/**
 * True when a buyer may open a dispute at `nowMs` (DECISIONS §11): from the order's `disputeOpensAt` (ISO)
 * on; false while it is null (not PAID) or not a valid instant. The seller's dispute has no time rule.
 */
export function buyerMayDispute(disputeOpensAt: string | null, nowMs: number): boolean {
  const opens = disputeOpensAt ? Date.parse(disputeOpensAt) : Number.NaN;
  return Number.isFinite(opens) && opens <= nowMs;
}
