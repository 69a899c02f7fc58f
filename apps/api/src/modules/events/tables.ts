import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

/** The live-event backlog (DECISIONS §12, 010_trade_room.sql); member_id null = every operator. */
export interface MemberEventsTable {
  id: Generated<number>;
  member_id: number | null;
  /** A `change` row's members told (031); null on a row for member_id alone. */
  members: ColumnType<number[] | null, number[] | null | undefined, never>;
  type: 'order' | 'message' | 'notification' | 'ops' | 'transfer' | 'change';
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export interface EventTables {
  member_events: MemberEventsTable;
}
