import type {
  BuyOrderCreated,
  BuyOrderDetail,
  OrderClock,
  OrderDispute,
  OrderHistoryItem,
  SellOrderDetail,
} from '@p2p/contract';
import { LIVE_ORDER_STATUSES } from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { toSellerStats } from './seller-stats.ts';
import { iso, isoOrNull, maskName } from './views.ts';

/**
 * Selects buy orders with their listing, the seller's wallet address, both parties and the seller's
 * maintained track record (DECISIONS §11).
 */
export function orderWithParties(db: DbOrTx) {
  return db
    .selectFrom('buy_orders as o')
    .innerJoin('sell_listings as l', 'l.id', 'o.listing_id')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .innerJoin('members as s', 's.id', 'o.seller_id')
    .innerJoin('members as b', 'b.id', 'o.buyer_id')
    .leftJoin('seller_stats as st', 'st.member_id', 'o.seller_id')
    .select([
      'o.id',
      'o.listing_id',
      'o.buyer_id',
      'o.seller_id',
      'o.coin',
      'o.request_qty',
      'o.request_krw',
      'o.unit_price_krw',
      'o.fee_qty',
      'o.status',
      'o.dest_type',
      'o.dest_address',
      'o.reserve_date',
      'o.reserve_time',
      'o.txid',
      'o.reason',
      'o.created_at',
      'o.completed_at',
      'o.payment_deadline',
      'o.paid_at',
      'o.release_deadline',
      'o.dispute_opens_at',
      'o.disputed_at',
      'o.expired_at',
      'o.dispute_reason',
      'o.dispute_opened_by',
      'o.buyer_statement',
      'o.seller_statement',
      'o.system_statement',
      'st.completed_trades as seller_completed_trades',
      'st.recent as seller_recent',
      's.created_at as seller_since',
      'l.bank_name',
      'l.account_no',
      'w.address as seller_address',
      's.login_id as seller_login_id',
      's.nickname as seller_nickname',
      's.name as seller_name',
      's.country_code as seller_country',
      's.phone_e164 as seller_phone',
      'b.login_id as buyer_login_id',
      'b.nickname as buyer_nickname',
      'b.name as buyer_name',
      'b.country_code as buyer_country',
      'b.phone_e164 as buyer_phone',
      'b.bank_name as buyer_bank_name',
      'b.account_no as buyer_account_no',
    ]);
}

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderWithParties>['executeTakeFirstOrThrow']>>;

const isLive = (status: string) => (LIVE_ORDER_STATUSES as readonly string[]).includes(status);

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
  };
}

/**
 * The buyer's view (SPEC §3 "Buy order"): the seller's bank details for the deposit; the seller's full
 * name only while the order is live (DECISIONS §10), masked afterwards.
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
    sellerAccountHolder: isLive(r.status) ? r.seller_name : maskName(r.seller_name),
    sellerPhone: r.seller_phone,
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
    buyerLoginId: r.buyer_nickname,
    buyerNickname: r.buyer_nickname,
    buyerCountryCode: r.buyer_country,
    buyerPhone: r.buyer_phone,
    buyerName: r.buyer_name,
    buyerBankName: r.buyer_bank_name,
    buyerAccountNo: r.buyer_account_no,
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
