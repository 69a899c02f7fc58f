import type { Coin, ReservesSource } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

/** One address counted in a snapshot's reserves, as stored (jsonb) and shown (DECISIONS §20). */
export interface StoredReserveAddress {
  address: string;
  role: 'DEPOSIT' | 'HOT' | 'COLD' | 'PLATFORM';
  balance: string;
  signature: string | null;
  scheme: string | null;
  message: string | null;
}

/** A coin's snapshot (026_reserves.sql). */
export interface ReserveSnapshotsTable {
  id: Generated<number>;
  coin: Coin;
  taken_at: CreatedAt;
  root_hash: string;
  root_sum: Numeric;
  leaf_count: number;
  member_count: number;
  reserves: ColumnType<string | null, string | null, string | null>;
  reserves_source: ReservesSource;
  addresses: ColumnType<StoredReserveAddress[], string, string>;
  taken_by: number | null;
  /** The lowest node level in reserve_levels (035); null for a snapshot stored as rows (026). */
  nodes_from_level: ColumnType<number | null, number | null | undefined, never>;
}

export interface ReserveLeavesTable {
  snapshot_id: number;
  idx: number;
  member_id: number | null;
  salt: Uint8Array;
  balance: Numeric;
}

export interface ReserveNodesTable {
  snapshot_id: number;
  level: number;
  idx: number;
  hash: Uint8Array;
  sum: Numeric;
}

/** A chunk of a stored level of a snapshot's tree (035): 48-byte records from first_idx on, leaves at level 0. */
export interface ReserveLevelsTable {
  snapshot_id: number;
  level: number;
  first_idx: number;
  data: Uint8Array;
}

/** A block of a snapshot's member index (035): 12-byte entries (member id, leaf index) ascending by member. */
export interface ReserveMemberBlocksTable {
  snapshot_id: number;
  first_member_id: number;
  entries: Uint8Array;
}

export interface ReserveDeclarationsTable {
  coin: Coin;
  amount: Numeric;
  declared_by: number;
  declared_at: CreatedAt;
}

export interface ReservesTables {
  reserve_snapshots: ReserveSnapshotsTable;
  reserve_leaves: ReserveLeavesTable;
  reserve_nodes: ReserveNodesTable;
  reserve_levels: ReserveLevelsTable;
  reserve_member_blocks: ReserveMemberBlocksTable;
  reserve_declarations: ReserveDeclarationsTable;
}
