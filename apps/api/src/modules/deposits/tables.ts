import type { Coin, UnmatchedStatus } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Per coin: the active watcher's lease, its cursor and what it last saw of the node (018_chain_deposits.sql). */
export interface ChainWatchersTable {
  coin: Coin;
  holder: string | null;
  lease_until: NullableTime;
  /** The last block applied (-1 before block 0); null until the first scan chose where to start. */
  height: number | null;
  hash: string | null;
  node_height: number | null;
  node_up: boolean | null;
  last_scan_at: NullableTime;
  last_error: string | null;
  last_error_at: NullableTime;
  updated_at: CreatedAt;
}

/** The recent blocks a watcher applied (reorg detection). */
export interface ChainBlocksTable {
  coin: Coin;
  height: number;
  hash: string;
  parent_hash: string | null;
}

/** Payments to the platform that match no member: the operators' queue (DECISIONS §17). */
export interface ChainUnmatchedTable {
  id: Generated<number>;
  coin: Coin;
  txid: string;
  output_index: number;
  address: string;
  destination_tag: number | null;
  amount: Numeric;
  chain_amount: Numeric;
  block_height: number;
  status: ColumnType<UnmatchedStatus, UnmatchedStatus | undefined, UnmatchedStatus>;
  member_id: number | null;
  transfer_id: number | null;
  return_txid: string | null;
  reason: string | null;
  decided_by: number | null;
  decided_at: NullableTime;
  created_at: CreatedAt;
}

/** Tables of the deposits module. */
export interface DepositTables {
  chain_watchers: ChainWatchersTable;
  chain_blocks: ChainBlocksTable;
  chain_unmatched: ChainUnmatchedTable;
}
