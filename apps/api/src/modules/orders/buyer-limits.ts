import type { Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { lockMemberForTrade } from '../identity/index.ts';
import { buyerStanding } from './repo.ts';

/**
 * Thrown inside the order's transaction when an order of the buyer (as buyer or seller) is past its deadline:
 * the caller rolls back, settles the due orders (DECISIONS §11: an expiry counts, a dead order is not live)
 * and tries again. Checked in the same statement as the limits, so a purchase with nothing due (nearly every
 * one) pays no separate read for it.
 */
export class OrdersDue extends Error {
  constructor() {
    super('orders of the buyer are due');
  }
}

/** The buyer limits of DECISIONS §11 (config.orders). */
export interface BuyerLimits {
  maxLivePerBuyer: number;
  buyerCancelsPerDay: number;
}

/**
 * Refuses a new order of `buyerId` when (DECISIONS §11) their cancels and expiries of the last 24 h
 * reached `buyerCancelsPerDay`: 422 PURCHASE_BLOCKED {until: ISO, 24 h after the last one}; or when they
 * hold `maxLivePerBuyer` orders in REQUESTED, PAID or DISPUTED: 422 TOO_MANY_LIVE_ORDERS {max}. Only the
 * buyer's own cancels count (a seller's reject or an operator's cancel is not the buyer's doing).
 * Then returns the newest purchase phone check of the buyer that no order has used yet (DECISIONS §6, §11:
 * an sms_codes row of purpose 'member' that this member requested and verified for their current phone
 * `phoneE164` within the purchase window), or 422 PURCHASE_NOT_VERIFIED. Each check allows exactly one
 * order: the order stores its id under a unique index, which decides when two requests race past this read.
 * Throws OrdersDue (before any of these) when an order of the buyer must be settled first and `settleFirst`.
 * One statement for the three reads (repo.ts buyerStanding); call it inside the order's transaction after lockBuyer (a separate
 * statement, so this one's snapshot is taken after the lock and sees every order the buyer committed).
 */
export async function checkBuyerAndPurchaseCheck(
  tx: Tx,
  buyerId: number,
  phoneE164: string,
  rules: BuyerLimits,
  settleFirst = true,
): Promise<number> {
  const r = await buyerStanding(tx, buyerId, phoneE164);
  if (r.due && settleFirst) throw new OrdersDue();
  if (Number(r.drops) >= rules.buyerCancelsPerDay && r.last) {
    const until = new Date(new Date(r.last).getTime() + 24 * 3600_000).toISOString();
    throw new AppError('PURCHASE_BLOCKED', { until });
  }
  if (Number(r.live) >= rules.maxLivePerBuyer) {
    throw new AppError('TOO_MANY_LIVE_ORDERS', { max: rules.maxLivePerBuyer });
  }
  if (r.check_id === null) throw new AppError('PURCHASE_NOT_VERIFIED');
  return Number(r.check_id);
}

/**
 * Locks the buyer's member row for the order's transaction, so one buyer's concurrent purchases are
 * counted one after the other (the live-order limit and the purchase check cannot be raced). Returns the
 * buyer's current phone (E.164). The row is the identity module's: locked through its repo.
 */
export async function lockBuyer(tx: Tx, buyerId: number): Promise<string> {
  return (await lockMemberForTrade(tx, buyerId)).phoneE164;
}
