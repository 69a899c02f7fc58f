import { createHash } from 'node:crypto';
import {
  CHAT_OPEN_DAYS_AFTER_END,
  CHAT_PAGE_SIZE,
  type MessageAuthor,
  type OrderMessage,
  type OrderMessagePage,
} from '@p2p/contract';
import sharp, { type Sharp } from 'sharp';
import type { Db, Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { recordMessageEvents, recordOpsEvent } from '../events/index.ts';
import { notifyMessageOnce } from '../notifications/index.ts';
import { orderStanding, settleOrder } from '../orders/index.ts';
import {
  insertChatImage,
  insertMessage,
  type MessageRow,
  messageImage,
  messageRow,
  messageRows,
} from './repo.ts';

/** The caller of a chat route: their member id and whether they are an operator. */
export interface ChatCaller {
  memberId: number;
  operator: boolean;
}

/** An order as the chat sees it, with the caller's role in it and whether the caller may write now. */
export interface ChatAccess {
  orderId: number;
  buyerId: number;
  sellerId: number;
  status: string;
  role: Exclude<MessageAuthor, 'SYSTEM'>;
  writable: boolean;
}

/**
 * Who may use an order's chat (DECISIONS §12): its buyer and seller read and write until 7 days after
 * the order ended; operators read every chat and write while the order is DISPUTED. Anyone else: 404
 * ORDER_NOT_FOUND (existence does not leak). An order past its deadline is settled first, so the chat
 * never treats an expired order as live.
 */
export async function chatAccess(db: Db, orderId: number, caller: ChatCaller): Promise<ChatAccess> {
  const read = () => orderStanding(db, orderId, CHAT_OPEN_DAYS_AFTER_END);
  let o = await read();
  if (!o) throw new AppError('ORDER_NOT_FOUND');
  const role: ChatAccess['role'] | null =
    o.buyer_id === caller.memberId
      ? 'BUYER'
      : o.seller_id === caller.memberId
        ? 'SELLER'
        : caller.operator
          ? 'OPERATOR'
          : null;
  if (role === null) throw new AppError('ORDER_NOT_FOUND');
  if (o.due) {
    await settleOrder(db, orderId);
    o = await read();
    if (!o) throw new AppError('ORDER_NOT_FOUND');
  }
  const writable = role === 'OPERATOR' ? o.status === 'DISPUTED' : Boolean(o.open);
  return { orderId: o.id, buyerId: o.buyer_id, sellerId: o.seller_id, status: o.status, role, writable };
}

const toView = (r: MessageRow, callerId: number): OrderMessage => ({
  messageId: r.id,
  orderId: r.order_id,
  kind: r.kind,
  author: r.author_role,
  mine: r.author_id === callerId,
  text: r.text,
  status: r.status,
  image:
    r.image_id !== null && r.content_type && r.width && r.height
      ? {
          url: `/buy-orders/${r.order_id}/messages/${r.id}/image`,
          contentType: r.content_type,
          width: r.width,
          height: r.height,
        }
      : null,
  createdAt: new Date(r.created_at).toISOString(),
});

/** One page (50) of an order's chat, oldest first, after `cursor`. Callers passed chatAccess. */
export async function listMessages(
  db: Db,
  access: ChatAccess,
  callerId: number,
  cursor?: string,
): Promise<OrderMessagePage> {
  const scope = `chat:${access.orderId}`;
  const after = cursor ? decodeIdCursor(scope, cursor) : 0;
  const rows = await messageRows(db, access.orderId, after, CHAT_PAGE_SIZE + 1);
  const more = rows.length > CHAT_PAGE_SIZE;
  const page = rows.slice(0, CHAT_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    list: page.map((r) => toView(r, callerId)),
    nextCursor: more && last ? encodeIdCursor(scope, last.id) : null,
    writable: access.writable,
  };
}

/**
 * The live events and the MESSAGE notification of a new message, in its transaction: `message`
 * {orderId} to both parties (and the operators' queue while DISPUTED); a MESSAGE notification to the
 * other party (an operator's message: to both), unless one for this order is still unread.
 */
async function announce(tx: Tx, a: ChatAccess): Promise<void> {
  await recordMessageEvents(tx, a.orderId, a.buyerId, a.sellerId);
  if (a.status === 'DISPUTED') await recordOpsEvent(tx, 'MESSAGE', a.orderId);
  const to = a.role === 'BUYER' ? [a.sellerId] : a.role === 'SELLER' ? [a.buyerId] : [a.buyerId, a.sellerId];
  for (const m of to) {
    await notifyMessageOnce(tx, m, a.orderId);
  }
}

function assertWritable(a: ChatAccess): void {
  if (!a.writable) throw new AppError('CHAT_CLOSED');
}

async function viewOf(tx: Tx, id: number, callerId: number): Promise<OrderMessage> {
  return toView(await messageRow(tx, id), callerId);
}

/** Posts a text message (1-1000 characters, stored as given: plain text). 409 CHAT_CLOSED. */
export async function postText(db: Db, a: ChatAccess, callerId: number, text: string): Promise<OrderMessage> {
  assertWritable(a);
  return inTx(db, async (tx) => {
    const id = await insertMessage(tx, {
      orderId: a.orderId,
      authorId: callerId,
      authorRole: a.role,
      kind: 'TEXT',
      text,
    });
    await announce(tx, a);
    return viewOf(tx, id, callerId);
  });
}

/** A decoded and re-encoded chat image. */
export interface CleanImage {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
}

const MAX_SIDE = 4096;

/**
 * Decodes an upload with sharp and re-encodes it in its own format (JPEG, PNG or WebP), turned upright by
 * its EXIF orientation, at most 4096 px a side, with every metadata block (EXIF, GPS, ICC, XMP) dropped:
 * sharp writes none unless asked. Anything else, or bytes that do not decode: 422 IMAGE_UNSUPPORTED.
 */
export async function reencodeImage(input: Buffer): Promise<CleanImage> {
  try {
    const img = sharp(input, { failOn: 'error', limitInputPixels: 50_000_000 });
    const meta = await img.metadata();
    const base = img
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    let out: Sharp;
    let contentType: CleanImage['contentType'];
    if (meta.format === 'jpeg') {
      out = base.jpeg({ quality: 85 });
      contentType = 'image/jpeg';
    } else if (meta.format === 'png') {
      out = base.png();
      contentType = 'image/png';
    } else if (meta.format === 'webp') {
      out = base.webp({ quality: 85 });
      contentType = 'image/webp';
    } else {
      throw new AppError('IMAGE_UNSUPPORTED');
    }
    const { data, info } = await out.toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMAGE_UNSUPPORTED');
  }
}

/** Stores a re-encoded image and its message together. 409 CHAT_CLOSED. */
export async function postImage(
  db: Db,
  a: ChatAccess,
  callerId: number,
  img: CleanImage,
): Promise<OrderMessage> {
  assertWritable(a);
  return inTx(db, async (tx) => {
    const imageId = await insertChatImage(tx, {
      orderId: a.orderId,
      uploaderId: callerId,
      contentType: img.contentType,
      width: img.width,
      height: img.height,
      bytes: img.bytes,
      sha256: createHash('sha256').update(img.bytes).digest('hex'),
    });
    const id = await insertMessage(tx, {
      orderId: a.orderId,
      authorId: callerId,
      authorRole: a.role,
      kind: 'IMAGE',
      imageId,
    });
    await announce(tx, a);
    return viewOf(tx, id, callerId);
  });
}

/** The stored image of message `messageId` of the order; 404 NOT_FOUND when it has none. */
export async function imageOf(
  db: Db,
  a: ChatAccess,
  messageId: number,
): Promise<{ bytes: Buffer; contentType: string; sha256: string }> {
  const r = await messageImage(db, a.orderId, messageId);
  if (!r) throw new AppError('NOT_FOUND');
  return { bytes: Buffer.from(r.bytes), contentType: r.content_type, sha256: r.sha256 };
}
