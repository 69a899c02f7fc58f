import type {
  BuyOrderCreated,
  BuyOrderDetail,
  DisputeResolution,
  OrderClock,
  OrderDispute,
  OrderHistoryItem,
  SellOrderDetail,
} from '@p2p/contract';
import { orderHolderName, orderHolderPhone } from '@p2p/contract';
import { qty } from '../../db/numeric.ts';
import { iso, isoOrNull, toSellerStats } from '../listings/index.ts';
import type { OrderRow } from './queries.ts';

/** The protocol's clock of an order (DECISIONS §11): ISO instants, null when not applicable. */
export function toOrderClock(r: OrderRow): OrderClock {
  return {
    paymentDeadline: r.status === 'REQUESTED' || r.status === 'EXPIRED' ? iso(r.payment_deadline) : null,
    paidAt: isoOrNull(r.paid_at),
    releaseDeadline: r.status === 'PAID' || r.status === 'DISPUTED' ? isoOrNull(r.release_deadline) : null,
    disputedAt: isoOrNull(r.disputed_at),
    expiredAt: isoOrNull(r.expired_at),
    disputeOpensAt: r.status === 'PAID' ? isoOrNull(r.dispute_opens_at) : null,
  };
}

/** The dispute record, null when the order was never disputed. */
export function toOrderDispute(r: OrderRow): OrderDispute | null {
  if (r.dispute_reason === null || r.dispute_opened_by === null) return null;
  return {
    reason: r.dispute_reason,
    openedBy: r.dispute_opened_by,
    buyerStatement: r.buyer_statement,
    sellerStatement: r.seller_statement,
    systemStatement: r.system_statement,
    resolution: toDisputeResolution(r),
  };
}

/**
 * The operator's decision on a disputed order (DECISIONS §11), shown to both parties: present once an
 * operator ended it from DISPUTED (COMPLETED or CANCELED by OPERATOR after `disputed_at`), with their reason
 * and the seconds the dispute took; null otherwise.
 */
export function toDisputeResolution(r: OrderRow): DisputeResolution | null {
  const ended = r.status === 'COMPLETED' || r.status === 'CANCELED';
  if (!ended || r.ended_by !== 'OPERATOR' || r.disputed_at === null || r.ended_at === null) return null;
  const took = Math.round((new Date(r.ended_at).getTime() - new Date(r.disputed_at).getTime()) / 1000);
  return {
    outcome: r.status as DisputeResolution['outcome'],
    reason: r.reason,
    resolvedAt: iso(r.ended_at),
    tookSec: Math.max(0, took),
  };
}

/**
 * The buyer's view (SPEC §3 "Buy order"): the seller's bank details for the deposit; the seller's full
 * name and phone number only while the order is live (DECISIONS §10), masked afterwards.
 */
export function toBuyOrderCreated(r: OrderRow): BuyOrderCreated {
  return {
    orderId: r.id,
    coinCode: r.coin,
    requestQty: qty(r.request_qty),
    requestKrwAmount: r.request_krw,
    unitPriceKrw: r.unit_price_krw,
    status: r.status,
    createdAt: iso(r.created_at),
    destType: r.dest_type,
    destAddress: r.dest_address,
    address: r.seller_address,
    // the nickname is a member's one public name (DECISIONS §11): no login id leaves for the other party
    sellerLoginId: r.seller_nickname,
    sellerAccountHolder: orderHolderName(r.status, r.seller_name),
    sellerPhone: orderHolderPhone(r.status, r.seller_phone),
    sellerBankName: r.bank_name,
    sellerAccountNo: r.account_no,
    sellerNickName: r.seller_nickname,
    sellerCountryCode: r.seller_country,
    reserveDate: r.reserve_date,
    reserveTime: r.reserve_time,
    ...toOrderClock(r),
    dispute: toOrderDispute(r),
    sellerStats: toSellerStats(r.seller_completed_trades, r.seller_recent, r.seller_since),
  };
}

/** GET /my/buy-history/{id}: feeQty is the trade fee kept from the delivery (0 until COMPLETED). */
export function toBuyOrderDetail(r: OrderRow): BuyOrderDetail {
  return {
    ...toBuyOrderCreated(r),
    completedAt: isoOrNull(r.completed_at),
    sellerAddress: r.seller_address,
    txid: r.txid,
    feeQty: qty(r.fee_qty),
  };
}

/**
 * GET /my/sell-history/{id}: the seller sees their own name in full and the buyer's details (the buyer's
 * real name is the depositor name to check; their login id stays private: buyerLoginId is the nickname).
 */
export function toSellOrderDetail(r: OrderRow): SellOrderDetail {
  return {
    ...toBuyOrderDetail(r),
    sellerAccountHolder: r.seller_name,
    sellerPhone: r.seller_phone,
    buyerLoginId: r.buyer_nickname,
    buyerNickname: r.buyer_nickname,
    buyerCountryCode: r.buyer_country,
    buyerPhone: r.buyer_phone,
    buyerName: r.buyer_name,
    buyerBankName: r.buyer_bank_name,
    buyerAccountNo: r.buyer_account_no,
    // DECISIONS §19: the buyer's verified name; the name they signed up with until identity verification merges.
    expectedDepositorName: r.buyer_name,
  };
}

/** A row of /my/buy-history or (withBuyer) /my/sell-history. */
export function toHistoryItem(r: OrderRow, withBuyer: boolean): OrderHistoryItem {
  return {
    orderId: r.id,
    coinCode: r.coin,
    requestQty: qty(r.request_qty),
    requestKrwAmount: r.request_krw,
    status: r.status,
    createdAt: iso(r.created_at),
    completedAt: isoOrNull(r.completed_at),
    sellerNickName: r.seller_nickname,
    sellerCountryCode: r.seller_country,
    ...(withBuyer ? { buyerNickname: r.buyer_nickname } : {}),
    ...toOrderClock(r),
  };
}
