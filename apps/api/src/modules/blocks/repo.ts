import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/*
 * The blocks module's SQL (DECISIONS §19 "Counterparts"): `member_blocks` is written and locked only here.
 */

/** The advisory-lock class of one blocker's list (with the blocker id as the second key). */
const BLOCK_LIST_LOCK = 74219023;

/**
 * Serializes changes to one blocker's list for the caller's transaction, so two parallel blocks cannot both
 * pass the count and overfill it.
 */
export async function lockBlockList(tx: Tx, blockerId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BLOCK_LIST_LOCK}, ${blockerId}::int)`.execute(tx);
}

/** How many members `blockerId` blocks. */
export async function countBlocks(db: DbOrTx, blockerId: number): Promise<number> {
  const r = await db
    .selectFrom('member_blocks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('blocker_id', '=', blockerId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Adds a block; a block that exists already stays as it was (its date too). True when it is new. */
export async function insertBlock(tx: DbOrTx, blockerId: number, blockedId: number): Promise<boolean> {
  const r = await tx
    .insertInto('member_blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .returning('blocked_id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Removes a block; true when there was one. */
export async function deleteBlock(db: DbOrTx, blockerId: number, blockedId: number): Promise<boolean> {
  const r = await db
    .deleteFrom('member_blocks')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The ids `blockerId` blocks (the trade list leaves their listings out). */
export async function blockedIdsOf(db: DbOrTx, blockerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('member_blocks')
    .select('blocked_id')
    .where('blocker_id', '=', blockerId)
    .execute();
  return rows.map((r) => r.blocked_id);
}

/** True when either of the two members blocks the other (both indexes, one statement). */
export async function eitherBlocks(db: DbOrTx, a: number, b: number): Promise<boolean> {
  const r = await sql<{ blocked: boolean }>`select exists (select 1 from member_blocks
      where (blocker_id = ${a} and blocked_id = ${b}) or (blocker_id = ${b} and blocked_id = ${a})) as blocked`.execute(
    db,
  );
  return r.rows[0]?.blocked === true;
}

/** Deletes every block by or of a member (the retention purge); returns how many. */
export async function deleteBlocksOf(tx: DbOrTx, memberId: number): Promise<number> {
  const r = await tx
    .deleteFrom('member_blocks')
    .where((eb) => eb.or([eb('blocker_id', '=', memberId), eb('blocked_id', '=', memberId)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
