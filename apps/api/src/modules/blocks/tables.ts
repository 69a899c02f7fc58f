import type { CreatedAt } from '../../db/schema.ts';

/** A member's block of another (023_records.sql, DECISIONS §19 "Counterparts"). */
export interface MemberBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: CreatedAt;
}

/** Tables of the blocks module. */
export interface BlocksTables {
  member_blocks: MemberBlocksTable;
}
