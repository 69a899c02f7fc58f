import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

/** The live-event backlog (DECISIONS §12, 010_trade_room.sql); member_id null = every operator. */
export interface MemberEventsTable {
  id: Generated<number>;
  member_id: number | null;
  type: 'order' | 'message' | 'notification' | 'ops' | 'transfer';
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export interface EventTables {
  member_events: MemberEventsTable;
}
