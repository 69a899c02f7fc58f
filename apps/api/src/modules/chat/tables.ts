import type { MessageAuthor, OrderStatus } from '@p2p/contract';
import type { Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

/** Tables of the order chat (DECISIONS §12, 010_trade_room.sql). */
export interface ChatImagesTable {
  id: Generated<number>;
  order_id: number;
  uploader_id: number;
  content_type: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
  byte_size: number;
  /** hex SHA-256 of the re-encoded bytes */
  sha256: string;
  bytes: Buffer;
  created_at: CreatedAt;
}

export interface OrderMessagesTable {
  id: Generated<number>;
  order_id: number;
  author_id: number | null;
  author_role: MessageAuthor;
  kind: 'TEXT' | 'IMAGE' | 'SYSTEM';
  text: string | null;
  image_id: number | null;
  status: OrderStatus | null;
  created_at: CreatedAt;
}

export interface ChatTables {
  chat_images: ChatImagesTable;
  order_messages: OrderMessagesTable;
}
