import type { NotificationKind } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Tables of the notifications module (DECISIONS §12, 010_trade_room.sql). */
export interface NotificationsTable {
  id: Generated<number>;
  member_id: number;
  kind: NotificationKind;
  order_id: number | null;
  listing_id: number | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  read_at: NullableTime;
  created_at: CreatedAt;
  dispatched_at: NullableTime;
  sms_status: 'SENT' | 'OFF' | 'FAILED' | 'NO_PHONE' | null;
  push_sent: Generated<number>;
}

export interface NotificationSettingsTable {
  member_id: number;
  sms_alerts: boolean;
  updated_at: CreatedAt;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  member_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: CreatedAt;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
}
