import {
  type BuyOrderCreateBody,
  type BuyOrderCreated,
  type Coin,
  fromUnits,
  LIMITS,
  minPurchaseKrw,
  receiveQty,
  toUnits,
} from '@p2p/contract';
import { type ChainNetwork, isValidAddress, normalizeAddress } from '../../chains/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError, pgConstraint } from '../../errors/index.ts';
import { assertNotBlocked } from '../blocks/index.ts';
import { requireKycLevel } from '../kyc/index.ts';
import { listingForPurchase, lockListing, takeListingQty } from '../listings/index.ts';
import { assertExternalDeliveryAllowed } from '../wallets/index.ts';
import { type BuyerLimits, checkBuyerAndPurchaseCheck, lockBuyer, OrdersDue } from './buyer-limits.ts';
import { type OrderRow, orderWithDue } from './queries.ts';
import { insertBuyOrder, krwTradedLastDay, paymentDeadline } from './repo.ts';
import { checkReserve } from './reserve.ts';
import { settleDueFor } from './timers.ts';
import { settleOrder } from './transitions.ts';
import { toBuyOrderCreated } from './views.ts';

/** The protocol settings a purchase needs (config.orders, DECISIONS §11). */
export interface OrderRules extends BuyerLimits {
  paymentWindowSec: number;
  /** DECISIONS §19: the level trading needs (0 = none) and the won a member below level 2 may trade per 24 h. */
  kyc: { tradeLevel: number; level1DailyKrw: number };
  /** DECISIONS §19: WITHDRAW_HOLD_SEC / _NEW_SEC; absent = no hold (an external delivery is then allowed). */
  holds?: { holdSec: number; newMemberHoldSec: number };
}

/**
 * Above KYC1_DAILY_KRW traded in 24 h (with this purchase) a member needs level 2: 422 KYC_REQUIRED {level: 2}
 * (DECISIONS §19). Lifted with the level requirement itself (KYC_TRADE_LEVEL=0). Under the buyer's row lock,
 * so parallel purchases are summed one after the other.
 */
async function requireDailyRoom(tx: Tx, buyerId: number, krw: number, kyc: OrderRules['kyc']): Promise<void> {
  if (kyc.tradeLevel <= 0) return;
  if ((await krwTradedLastDay(tx, buyerId)) + krw > kyc.level1DailyKrw) await requireKycLevel(tx, buyerId, 2);
}

/**
 * The buyer's order view, or 404 ORDER_NOT_FOUND. An order whose deadline has passed is settled first and
 * read again (settleBeforeRead's test rides in the read, so an order not due costs one statement).
 */
export async function buyOrderView(db: Db, orderId: number): Promise<BuyOrderCreated> {
  const read = () => orderWithDue(db, orderId);
  let row = await read();
  if (row?.due) {
    await settleOrder(db, orderId);
    row = await read();
  }
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toBuyOrderCreated(row);
}

/**
 * The listing terms a purchase is checked against before the row lock (they never change), read with the
 * buyer's destination wallet when one is named (destinationOf decides on it after the listing's checks).
 */
async function purchasableListing(db: Db, buyerId: number, body: BuyOrderCreateBody) {
  const walletId = body.destType === 'INTERNAL' && body.destWalletId ? body.destWalletId : null;
  const l = await listingForPurchase(db, body.listingId, buyerId, walletId);
  if (!l) throw new AppError('LISTING_NOT_FOUND');
  // a suspended seller cannot trade (DECISIONS §8): their listings take no orders
  if (l.status !== 'OPEN' || l.seller_status !== 'ACTIVE') throw new AppError('LISTING_NOT_OPEN');
  if (l.seller_id === buyerId) throw new AppError('SELF_TRADE');
  const minKrw = minPurchaseKrw(fromUnits(toUnits(l.min_qty)), l.unit_price_krw);
  if (body.krwAmount < minKrw) throw new AppError('BELOW_MIN_PURCHASE', { minPurchaseKrw: minKrw });
  return l;
}

/**
 * Where the coins go (DECISIONS §4): the buyer's own ACTIVE wallet of the coin (read with the listing), or a
 * valid external address.
 */
function destinationOf(
  l: { coin: Coin; dest_wallet_id: number | null; dest_wallet_address: string | null },
  body: BuyOrderCreateBody,
  network: ChainNetwork,
): { walletId: number | null; address: string } {
  if (body.destType === 'INTERNAL') {
    if (!body.destWalletId || l.dest_wallet_id === null || l.dest_wallet_address === null) {
      throw new AppError('WALLET_NOT_FOUND');
    }
    return { walletId: l.dest_wallet_id, address: l.dest_wallet_address };
  }
  const address = body.destAddress?.trim() ?? '';
  if (!isValidAddress(l.coin, address, network)) throw new AppError('INVALID_ADDRESS');
  return { walletId: null, address: normalizeAddress(l.coin, address) };
}

/** DECISIONS §19: an external delivery while purchases are held is refused (422 WITHDRAWAL_HELD). */
async function assertDeliveryNotHeld(
  db: Db,
  body: BuyOrderCreateBody,
  buyerId: number,
  qty: string,
  rules: OrderRules,
): Promise<void> {
  if (body.destType === 'EXTERNAL' && rules.holds)
    await assertExternalDeliveryAllowed(db, rules.holds, buyerId, qty);
}

/**
 * Creates a buy order in REQUESTED (SPEC §5 "Purchase", DECISIONS §4, §10). Checks, in order: 422
 * KYC_REQUIRED {level} below KYC_TRADE_LEVEL (DECISIONS §19; level 2 above KYC1_DAILY_KRW in 24 h, decided
 * under the buyer's row lock), 422 ABOVE_MAX_PURCHASE (> 9,500,000 won), 404 LISTING_NOT_FOUND, 422 LISTING_NOT_OPEN, 422 SELF_TRADE,
 * 422 BELOW_MIN_PURCHASE (< ceil(minQty x price)), 400 QTY_MISMATCH (requestQty != krw/price floored to 4
 * decimals), 422 RESERVE_TIME_INVALID, 404 WALLET_NOT_FOUND / 400 INVALID_ADDRESS, 422 WITHDRAWAL_HELD for an
 * outside address while purchased coins are held (DECISIONS §19); then, under the buyer's
 * row lock, 422 PURCHASE_BLOCKED {until} / TOO_MANY_LIVE_ORDERS {max} (DECISIONS §11) and 422
 * 422 BLOCKED when buyer or seller blocks the other (DECISIONS §19), 422
 * PURCHASE_NOT_VERIFIED when the buyer has no unused phone check verified within 5 minutes (one order per
 * check); under the listing's row lock 422 LISTING_NOT_OPEN / INSUFFICIENT_LISTING_QTY. requestQty leaves remainingQty; the coins stay in the seller's escrow. The
 * order's paymentDeadline is now (or the reserved instant) + `rules.paymentWindowSec`.
 */
export async function createBuyOrder(
  db: Db,
  network: ChainNetwork,
  buyerId: number,
  body: BuyOrderCreateBody,
  rules: OrderRules,
): Promise<BuyOrderCreated> {
  await requireKycLevel(db, buyerId, rules.kyc.tradeLevel);
  if (body.krwAmount > LIMITS.maxPurchaseKrw) throw new AppError('ABOVE_MAX_PURCHASE');
  const l = await purchasableListing(db, buyerId, body);
  const qty = receiveQty(body.krwAmount, l.unit_price_krw);
  if (toUnits(body.requestQty) !== toUnits(qty)) throw new AppError('QTY_MISMATCH', { requestQty: qty });
  const reservedAt = checkReserve(body.reserveDate, body.reserveTime, Date.now());
  const dest = destinationOf(l, body, network);
  await assertDeliveryNotHeld(db, body, buyerId, qty, rules);
  const units = toUnits(qty);
  const place = (settleFirst: boolean) =>
    inTx(db, async (tx) => {
      const phone = await lockBuyer(tx, buyerId);
      await requireDailyRoom(tx, buyerId, body.krwAmount, rules.kyc);
      // DECISIONS §19, under the buyer's row lock: a block by either side refuses the order.
      await assertNotBlocked(tx, buyerId, l.seller_id);
      const check = await checkBuyerAndPurchaseCheck(tx, buyerId, phone, rules, settleFirst);
      // The listing's row lock is taken by the update itself (one round trip under the lock); when it
      // matches nothing, the row says why.
      if (!(await takeListingQty(tx, l.id, units))) {
        const now = await lockListing(tx, l.id);
        if (now?.status !== 'OPEN') throw new AppError('LISTING_NOT_OPEN');
        throw new AppError('INSUFFICIENT_LISTING_QTY');
      }
      return insertBuyOrder(tx, {
        listing_id: l.id,
        buyer_id: buyerId,
        seller_id: l.seller_id,
        coin: l.coin,
        request_qty: qty,
        request_krw: body.krwAmount,
        unit_price_krw: l.unit_price_krw,
        dest_type: body.destType,
        dest_wallet_id: dest.walletId,
        dest_address: dest.address,
        reserve_date: body.reserveDate ?? null,
        reserve_time: body.reserveTime ?? null,
        txid: null,
        reason: null,
        // instant: now + the window; reserve: the reserved KST instant + the window (DECISIONS §11)
        payment_deadline: paymentDeadline(reservedAt, rules.paymentWindowSec),
        purchase_check_id: check,
      });
    });
  // DECISIONS §11: the buyer's overdue orders are settled first (an expiry counts, a dead order is not live);
  // the limits and the phone check are then decided once, under the buyer's row lock. The transaction finds
  // them (OrdersDue) and the order is placed again after they are settled; a third round goes on with what
  // it finds (orders that fell due meanwhile are settled by the timers, as they were before this check).
  let placed: OrderRow | undefined;
  for (let round = 1; placed === undefined; round++) {
    try {
      placed = await place(round < 3);
    } catch (err) {
      if (err instanceof OrdersDue) {
        await settleDueFor(db, buyerId);
        continue;
      }
      // the unique index decides a race for one phone check that the read above did not see
      if (pgConstraint(err) === 'buy_orders_purchase_check_key') throw new AppError('PURCHASE_NOT_VERIFIED');
      throw err;
    }
  }
  return toBuyOrderCreated(placed);
}
