import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { LiveEvent } from './bus.ts';

/**
 * The SQL of the events module's table (`member_events`, DECISIONS §12, 010_trade_room.sql). Other modules
 * announce something in their own transaction through `recordMessageEvents` / `recordOpsEvent` (the row's
 * trigger notifies the bus on commit, so an event is never sent for a change that rolled back) and never
 * write `member_events` themselves; the hub reads the backlog and the routes prune it through the rest.
 */

/**
 * Records one `message` event {orderId} for each of an order's two parties (the buyer and the seller): one
 * `change` row and one NOTIFY for both.
 */
export async function recordMessageEvents(
  tx: Tx,
  orderId: number,
  buyerId: number,
  sellerId: number,
): Promise<void> {
  await sql`insert into member_events (member_id, members, type, data)
    select null, array[${buyerId}::bigint, ${sellerId}::bigint], 'change', jsonb_build_object('parts',
      jsonb_agg(jsonb_build_object('m', p, 't', 'message', 'd', jsonb_build_object('orderId', ${orderId}::bigint))))
    from unnest(array[${buyerId}::bigint, ${sellerId}::bigint]) p`.execute(tx);
}

/** Records one event for the operators' queue (member_id null, type `ops`) of `kind` on order `orderId`. */
export async function recordOpsEvent(tx: Tx, kind: 'MESSAGE', orderId: number): Promise<void> {
  await sql`insert into member_events (member_id, type, data)
    values (null, 'ops', jsonb_build_object('kind', ${kind}::text, 'orderId', ${orderId}::bigint))`.execute(
    tx,
  );
}

/** Who reads the backlog: a member sees their own events, an operator also the operators' (member_id null). */
export interface EventReader {
  memberId: number;
  operator: boolean;
}

// A `change` row (member_id null) lists the members it tells in `members`; operators read it too (its parts for
// every operator) and the hub keeps only the parts meant for each stream.
const visibleTo = (r: EventReader) =>
  r.operator
    ? sql<boolean>`(member_id = ${r.memberId} or member_id is null)`
    : sql<boolean>`(member_id = ${r.memberId} or members @> array[${r.memberId}::bigint])`;

/** The newest event id of the backlog (0 when empty). */
export async function latestEventId(db: DbOrTx): Promise<number> {
  const top = await sql<{ max: number | null }>`select max(id)::bigint as max from member_events`.execute(db);
  return Number(top.rows[0]?.max ?? 0);
}

/** True when event `id` is still in the backlog and visible to `reader` (a resume point it may use). */
export async function eventKnownTo(db: DbOrTx, id: number, reader: EventReader): Promise<boolean> {
  const known = await sql<{ ok: boolean }>`select exists (select 1 from member_events
        where id = ${id} and ${visibleTo(reader)}) as ok`.execute(db);
  return Boolean(known.rows[0]?.ok);
}

/** Up to `limit` events after `afterId` visible to `reader`, oldest first. */
export async function eventsAfter(db: DbOrTx, afterId: number, reader: EventReader, limit: number) {
  const rows = await sql<{
    id: number;
    member_id: number | null;
    type: LiveEvent['type'];
    data: LiveEvent['data'];
  }>`
      select id, member_id, type, data from member_events
      where id > ${afterId} and ${visibleTo(reader)} order by id limit ${limit}`.execute(db);
  return rows.rows;
}

/** A backlog row as read back: bigint columns arrive as strings on PostgreSQL. */
export interface EventRow {
  id: number | string;
  member_id: number | string | null;
  type: LiveEvent['type'];
  data: LiveEvent['data'];
}

/**
 * The rows whose ids lie in the runs `[lo, hi]` (inclusive), oldest first: what a statement's NOTIFY named
 * (028_event_notify_per_statement.sql; a run holds only that statement's rows). One read for every run.
 */
export async function eventsInRuns(
  db: DbOrTx,
  runs: readonly (readonly [number, number])[],
): Promise<EventRow[]> {
  const rows = await sql<EventRow>`
      select e.id, e.member_id, e.type, e.data from member_events e
      join unnest(${runs.map((r) => r[0])}::bigint[], ${runs.map((r) => r[1])}::bigint[]) as r(lo, hi)
        on e.id between r.lo and r.hi
      order by e.id`.execute(db);
  return rows.rows;
}

/** Deletes events older than `maxAgeSec` seconds; returns the rows removed. */
export async function deleteEventsOlderThan(db: DbOrTx, maxAgeSec: number): Promise<number> {
  const r = await sql`delete from member_events
    where created_at < now() - make_interval(secs => ${maxAgeSec})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
