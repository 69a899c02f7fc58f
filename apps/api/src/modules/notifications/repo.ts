import { sql } from 'kysely';
import type { Tx } from '../../db/client.ts';

/**
 * The SQL of the notifications module's tables that other modules need to raise a notification in their
 * own transaction (DECISIONS §12). Other modules never write `notifications` themselves.
 */

/**
 * Raises a MESSAGE notification of order `orderId` for `memberId`, unless one for that order is still
 * unread (one unread MESSAGE per order and member, however many messages arrive).
 */
export async function notifyMessageOnce(tx: Tx, memberId: number, orderId: number): Promise<void> {
  await sql`insert into notifications (member_id, kind, order_id)
      select ${memberId}::bigint, 'MESSAGE', ${orderId}::bigint
      where not exists (select 1 from notifications where member_id = ${memberId} and order_id = ${orderId}
        and kind = 'MESSAGE' and read_at is null)`.execute(tx);
}
