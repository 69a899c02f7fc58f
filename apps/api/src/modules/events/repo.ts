import { sql } from 'kysely';
import type { Tx } from '../../db/client.ts';

/**
 * The SQL of the events module's table (`member_events`) that other modules need to announce something in
 * their own transaction (DECISIONS §12): the row's trigger notifies the bus on commit, so an event is never
 * sent for a change that rolled back. Other modules never write `member_events` themselves.
 */

/** Records one `message` event {orderId} for each of an order's two parties (the buyer and the seller). */
export async function recordMessageEvents(
  tx: Tx,
  orderId: number,
  buyerId: number,
  sellerId: number,
): Promise<void> {
  await sql`insert into member_events (member_id, type, data)
    select p, 'message', jsonb_build_object('orderId', ${orderId}::bigint)
    from unnest(array[${buyerId}::bigint, ${sellerId}::bigint]) p`.execute(tx);
}

/** Records one event for the operators' queue (member_id null, type `ops`) of `kind` on order `orderId`. */
export async function recordOpsEvent(tx: Tx, kind: 'MESSAGE', orderId: number): Promise<void> {
  await sql`insert into member_events (member_id, type, data)
    values (null, 'ops', jsonb_build_object('kind', ${kind}::text, 'orderId', ${orderId}::bigint))`.execute(
    tx,
  );
}
