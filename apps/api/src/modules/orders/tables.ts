import type { Coin, DisputeReason, OrderStatus } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

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
  status: Generated<OrderStatus>;
  txid: string | null;
  reason: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  completed_at: NullableTime;
  /** DECISIONS §11 (008_trade_protocol.sql) */
  payment_deadline: ColumnType<Date, Date | string, Date | string>;
  paid_at: NullableTime;
  release_deadline: NullableTime;
  dispute_opens_at: NullableTime;
  disputed_at: NullableTime;
  expired_at: NullableTime;
  ended_at: NullableTime;
  ended_by: ColumnType<OrderParty | null, OrderParty | null | undefined, OrderParty | null>;
  dispute_reason: ColumnType<DisputeReason | null, DisputeReason | null | undefined, DisputeReason | null>;
  dispute_opened_by: ColumnType<
    'BUYER' | 'SELLER' | 'SYSTEM' | null,
    'BUYER' | 'SELLER' | 'SYSTEM' | null | undefined,
    'BUYER' | 'SELLER' | 'SYSTEM' | null
  >;
  buyer_statement: ColumnType<string | null, string | null | undefined, string | null>;
  seller_statement: ColumnType<string | null, string | null | undefined, string | null>;
  system_statement: ColumnType<string | null, string | null | undefined, string | null>;
  purchase_check_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Who ended an order (ended_by). */
export type OrderParty = 'BUYER' | 'SELLER' | 'OPERATOR' | 'SYSTEM';

/** Tables of the orders module (004_market.sql, 008_trade_protocol.sql). */
export interface OrdersTables {
  buy_orders: BuyOrdersTable;
}
