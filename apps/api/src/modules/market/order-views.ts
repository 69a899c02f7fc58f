import type { BuyOrderCreated, BuyOrderDetail, OrderHistoryItem, SellOrderDetail } from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';
import { iso, isoOrNull, maskName, qty } from './views.ts';

/** Selects buy orders with their listing, the seller's wallet address and both parties. */
export function orderWithParties(db: DbOrTx) {
  return db
    .selectFrom('buy_orders as o')
    .innerJoin('sell_listings as l', 'l.id', 'o.listing_id')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .innerJoin('members as s', 's.id', 'o.seller_id')
    .innerJoin('members as b', 'b.id', 'o.buyer_id')
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
    sellerLoginId: r.seller_login_id,
    sellerAccountHolder: r.status === 'REQUESTED' ? r.seller_name : maskName(r.seller_name),
    sellerPhone: r.seller_phone,
    sellerBankName: r.bank_name,
    sellerAccountNo: r.account_no,
    sellerNickName: r.seller_nickname,
    sellerCountryCode: r.seller_country,
    reserveDate: r.reserve_date,
    reserveTime: r.reserve_time,
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

/** GET /my/sell-history/{id}: the seller sees their own name in full and the buyer's details. */
export function toSellOrderDetail(r: OrderRow): SellOrderDetail {
  return {
    ...toBuyOrderDetail(r),
    sellerAccountHolder: r.seller_name,
    buyerLoginId: r.buyer_login_id,
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
  };
}
