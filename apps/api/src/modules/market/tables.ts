import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

type Coin = 'BTC' | 'ETH' | 'XRP' | 'TRX';
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface SellListingsTable {
  id: Generated<number>;
  seller_id: number;
  wallet_id: number;
  coin: Coin;
  min_qty: Numeric;
  max_qty: Numeric;
  remaining_qty: Numeric;
  /** whole won (bigint column, read as a number: prices stay far below 2^53) */
  unit_price_krw: ColumnType<number, number, number>;
  bank_name: string;
  account_no: string;
  status: Generated<'PENDING_REVIEW' | 'OPEN' | 'PAUSED' | 'CLOSED' | 'REJECTED'>;
  reject_reason: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  closed_at: NullableTime;
}

export interface BuyOrdersTable {
  id: Generated<number>;
  listing_id: number;
  buyer_id: number;
  seller_id: number;
  coin: Coin;
  request_qty: Numeric;
  request_krw: number;
  unit_price_krw: number;
  /** the trade fee kept from the delivery (0 until COMPLETED; DECISIONS §3) */
  fee_qty: Generated<string>;
  dest_type: 'INTERNAL' | 'EXTERNAL';
  dest_wallet_id: number | null;
  dest_address: string;
  reserve_date: string | null;
  reserve_time: string | null;
  status: Generated<'REQUESTED' | 'COMPLETED' | 'CANCELED' | 'REJECTED'>;
  txid: string | null;
  reason: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  completed_at: NullableTime;
}

/** Tables of the market module (004_market.sql). */
export interface MarketTables {
  sell_listings: SellListingsTable;
  buy_orders: BuyOrdersTable;
}
