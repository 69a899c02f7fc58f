import { LIMITS, LIVE_ORDER_STATUSES } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';

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
 * Authoritative only inside the order's transaction after lockBuyer (a second call outside it fails early).
 */
export async function checkBuyerLimits(db: DbOrTx, buyerId: number, rules: BuyerLimits): Promise<void> {
  const drops = await db
    .selectFrom('buy_orders')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('ended_at').as('last')])
    .where('buyer_id', '=', buyerId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'EXPIRED'),
        eb.and([eb('status', '=', 'CANCELED'), eb('ended_by', '=', 'BUYER')]),
      ]),
    )
    .where('ended_at', '>', sql<Date>`now() - interval '24 hours'`)
    .executeTakeFirstOrThrow();
  if (Number(drops.n) >= rules.buyerCancelsPerDay && drops.last) {
    const until = new Date(new Date(drops.last).getTime() + 24 * 3600_000).toISOString();
    throw new AppError('PURCHASE_BLOCKED', { until });
  }
  const live = await db
    .selectFrom('buy_orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('buyer_id', '=', buyerId)
    .where('status', 'in', LIVE_ORDER_STATUSES)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= rules.maxLivePerBuyer) {
    throw new AppError('TOO_MANY_LIVE_ORDERS', { max: rules.maxLivePerBuyer });
  }
}

/**
 * Locks the buyer's member row for the order's transaction, so one buyer's concurrent purchases are
 * counted one after the other (the live-order limit and the purchase check cannot be raced).
 */
export async function lockBuyer(tx: Tx, buyerId: number): Promise<string> {
  const m = await tx
    .selectFrom('members')
    .select('phone_e164')
    .where('id', '=', buyerId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  return m.phone_e164;
}

/**
 * The newest purchase phone check (DECISIONS §6, §11: an sms_codes row of purpose 'member' that this
 * member requested and verified for their current phone within the purchase window) that no order has
 * used yet, or undefined. Each check allows exactly one order: the order stores its id under a unique
 * index, which decides when two requests race past this read.
 */
export async function unusedPurchaseCheck(
  tx: Tx,
  buyerId: number,
  phoneE164: string,
): Promise<number | undefined> {
  const row = await tx
    .selectFrom('sms_codes as c')
    .select('c.id')
    .where('c.phone_e164', '=', phoneE164)
    .where('c.purpose', '=', 'member')
    .where('c.member_id', '=', buyerId)
    .where('c.verified_at', '>', sql<Date>`now() - make_interval(secs => ${LIMITS.purchaseVerifyWindowSec})`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('buy_orders as o').select('o.id').whereRef('o.purchase_check_id', '=', 'c.id'),
        ),
      ),
    )
    .orderBy('c.verified_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
