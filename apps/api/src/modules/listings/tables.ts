import type { Coin } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

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
  /** how many edits changed maxQty (the n of the ledger ref `listing:<id>:edit:<n>`), 033_listing_edits.sql */
  qty_edits: Generated<number>;
}

/**
 * A seller's maintained track record (DECISIONS §11). recent: [ended epoch s, 1 released by the seller |
 * 0 rejected or released by an operator, release seconds | -1], newest last, 30 days, at most 100.
 */
export interface SellerStatsTable {
  member_id: number;
  completed_trades: ColumnType<string, number | string | undefined, number | string>;
  recent: ColumnType<[number, number, number][], string | undefined, string>;
  updated_at: CreatedAt;
}

/** COMPLETED orders of the last 7 days per listed listing, rewritten by the best listings job (030_growth.sql). */
export interface StatsListingTradesTable {
  listing_id: number;
  trades: number;
  refreshed_at: CreatedAt;
}

/** Tables of the listings module (004_market.sql, 008_trade_protocol.sql): listings and sellers' records. */
export interface ListingsTables {
  sell_listings: SellListingsTable;
  seller_stats: SellerStatsTable;
  stats_listing_trades: StatsListingTradesTable;
}
