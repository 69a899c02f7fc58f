import type { MessageAuthor, OrderMessage } from '@p2p/contract';
import type { DbOrTx, Tx } from '../../db/client.ts';

/**
 * The SQL of the chat module's tables: `order_messages` and `chat_images` (DECISIONS §12,
 * 010_trade_room.sql; the images are stored re-encoded, their bytes in the row). Each function takes the
 * database or the caller's transaction; access checks and announcements stay in service.ts.
 */

/** A message row with its image's type and size (null without an image). */
export type MessageRow = {
  id: number;
  order_id: number;
  author_id: number | null;
  author_role: MessageAuthor;
  kind: OrderMessage['kind'];
  text: string | null;
  status: OrderMessage['status'];
  image_id: number | null;
  created_at: Date;
  content_type: string | null;
  width: number | null;
  height: number | null;
};

const messageQuery = (db: DbOrTx) =>
  db
    .selectFrom('order_messages as m')
    .leftJoin('chat_images as i', 'i.id', 'm.image_id')
    .select([
      'm.id',
      'm.order_id',
      'm.author_id',
      'm.author_role',
      'm.kind',
      'm.text',
      'm.status',
      'm.image_id',
      'm.created_at',
      'i.content_type',
      'i.width',
      'i.height',
    ]);

/** Up to `limit` messages of order `orderId` with ids above `afterId` (0 = from the start), oldest first. */
export async function messageRows(
  db: DbOrTx,
  orderId: number,
  afterId: number,
  limit: number,
): Promise<MessageRow[]> {
  return (await messageQuery(db)
    .where('m.order_id', '=', orderId)
    .where('m.id', '>', afterId)
    .orderBy('m.id', 'asc')
    .limit(limit)
    .execute()) as MessageRow[];
}

/** Message `id` with its image's type and size; throws when it does not exist. */
export async function messageRow(db: DbOrTx, id: number): Promise<MessageRow> {
  return (await messageQuery(db).where('m.id', '=', id).executeTakeFirstOrThrow()) as MessageRow;
}

/**
 * Inserts a member's chat message by `authorId` in role `authorRole`: TEXT (plain text as given) or IMAGE (of
 * chat image `imageId`); returns its id.
 */
export async function insertMessage(
  tx: Tx,
  m: { orderId: number; authorId: number; authorRole: MessageAuthor } & (
    | { kind: 'TEXT'; text: string }
    | { kind: 'IMAGE'; imageId: number }
  ),
): Promise<number> {
  const row = await tx
    .insertInto('order_messages')
    .values({
      order_id: m.orderId,
      author_id: m.authorId,
      author_role: m.authorRole,
      kind: m.kind,
      ...(m.kind === 'TEXT' ? { text: m.text } : { image_id: m.imageId }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts a chat image (re-encoded bytes, type, pixel size, byte size, sha256 hex); returns its id. */
export async function insertChatImage(
  tx: Tx,
  img: {
    orderId: number;
    uploaderId: number;
    contentType: 'image/jpeg' | 'image/png' | 'image/webp';
    width: number;
    height: number;
    bytes: Buffer;
    sha256: string;
  },
): Promise<number> {
  const image = await tx
    .insertInto('chat_images')
    .values({
      order_id: img.orderId,
      uploader_id: img.uploaderId,
      content_type: img.contentType,
      width: img.width,
      height: img.height,
      byte_size: img.bytes.length,
      sha256: img.sha256,
      bytes: img.bytes,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return image.id;
}

/** The stored image (bytes, type, sha256 hex) of message `messageId` of order `orderId`, or undefined. */
export async function messageImage(db: DbOrTx, orderId: number, messageId: number) {
  return db
    .selectFrom('order_messages as m')
    .innerJoin('chat_images as i', 'i.id', 'm.image_id')
    .select(['i.bytes', 'i.content_type', 'i.sha256'])
    .where('m.id', '=', messageId)
    .where('m.order_id', '=', orderId)
    .executeTakeFirst();
}

/**
 * The retention purge of one member (DECISIONS §19): every message they wrote and every image they uploaded is
 * deleted (their counterpart's messages and the system lines stay). Returns how many messages went.
 */
export async function purgeMessagesOf(tx: Tx, memberId: number): Promise<number> {
  const r = await tx.deleteFrom('order_messages').where('author_id', '=', memberId).executeTakeFirst();
  await tx.deleteFrom('chat_images').where('uploader_id', '=', memberId).execute();
  return Number(r.numDeletedRows);
}
