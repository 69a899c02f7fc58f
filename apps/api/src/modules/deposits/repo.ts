import type { Coin } from '@p2p/contract';
import { type Selectable, sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ChainUnmatchedTable } from './tables.ts';

/**
 * The SQL of the deposits module's tables (`chain_watchers`, `chain_blocks`, `chain_unmatched`; DECISIONS §17,
 * 018_chain_deposits.sql). Deposit rows themselves belong to the wallets module (wallets/chain-deposits.ts).
 * Heights are block numbers; lease times come from the database's clock, so instances never compare clocks.
 */

export type UnmatchedRow = Selectable<ChainUnmatchedTable>;

/** A watcher's position: the last block applied (-1 before block 0) and its hash (null at -1). */
export interface Cursor {
  height: number;
  hash: string | null;
}

/**
 * Takes or renews the coin's watcher lease for `holder` for `leaseMs`: it is granted when nobody holds it, the
 * holder's lease ran out (a crashed or stuck instance) or `holder` holds it already. True when `holder` has it.
 */
export async function acquireLease(
  db: DbOrTx,
  coin: Coin,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const r = await sql<{ holder: string }>`insert into chain_watchers (coin, holder, lease_until)
      values (${coin}, ${holder}, now() + make_interval(secs => ${leaseMs / 1000}))
      on conflict (coin) do update set holder = excluded.holder, lease_until = excluded.lease_until,
        updated_at = now()
      where chain_watchers.holder = excluded.holder or chain_watchers.holder is null
        or chain_watchers.lease_until is null or chain_watchers.lease_until < now()
      returning holder`.execute(db);
  return r.rows.length === 1;
}

/** Gives the lease up (a clean shutdown): another instance takes over at its next try. */
export async function releaseLease(db: DbOrTx, coin: Coin, holder: string): Promise<void> {
  await sql`update chain_watchers set holder = null, lease_until = null, updated_at = now()
      where coin = ${coin} and holder = ${holder}`.execute(db);
}

/** The coin's cursor, or null before the first scan chose where to start. */
export async function loadCursor(db: DbOrTx, coin: Coin): Promise<Cursor | null> {
  const r = await db
    .selectFrom('chain_watchers')
    .select(['height', 'hash'])
    .where('coin', '=', coin)
    .executeTakeFirst();
  if (!r || r.height === null) return null;
  return { height: Number(r.height), hash: r.hash };
}

/**
 * Moves the cursor of `coin` from `from` to `to` for lease holder `holder` and renews the lease, in the caller's
 * transaction: a compare-and-set on the height and hash, so two writers can never both apply a block and a
 * holder whose lease was taken over writes nothing. False when the row did not match (the caller rolls back).
 */
export async function moveCursor(
  tx: Tx,
  coin: Coin,
  holder: string,
  leaseMs: number,
  from: Cursor | null,
  to: Cursor,
): Promise<boolean> {
  const fromMatch =
    from === null
      ? sql`height is null`
      : sql`height = ${from.height}::bigint and hash is not distinct from ${from.hash}::text`;
  const r = await sql`update chain_watchers set height = ${to.height}::bigint, hash = ${to.hash}::text,
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}), last_scan_at = now(), updated_at = now()
      where coin = ${coin} and holder = ${holder} and lease_until > now() and ${fromMatch}`.execute(tx);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/** Stores block (height, hash, parent) as applied. */
export async function insertBlock(
  tx: Tx,
  coin: Coin,
  b: { height: number; hash: string; parentHash: string | null },
): Promise<void> {
  await tx
    .insertInto('chain_blocks')
    .values({ coin, height: b.height, hash: b.hash, parent_hash: b.parentHash })
    .onConflict((oc) =>
      oc.columns(['coin', 'height']).doUpdateSet({ hash: b.hash, parent_hash: b.parentHash }),
    )
    .execute();
}

/** Forgets the coin's applied blocks below `height` (the reorg window keeps the newest ones). */
export async function pruneBlocksBelow(tx: Tx, coin: Coin, height: number): Promise<void> {
  await tx.deleteFrom('chain_blocks').where('coin', '=', coin).where('height', '<', height).execute();
}

/** Forgets the coin's applied blocks above `height` (they left the chain). */
export async function deleteBlocksAbove(tx: Tx, coin: Coin, height: number): Promise<void> {
  await tx.deleteFrom('chain_blocks').where('coin', '=', coin).where('height', '>', height).execute();
}

/** The coin's applied blocks at or below `height`, newest first, at most `limit`. */
export async function blocksFrom(
  db: DbOrTx,
  coin: Coin,
  height: number,
  limit: number,
): Promise<{ height: number; hash: string }[]> {
  const rows = await db
    .selectFrom('chain_blocks')
    .select(['height', 'hash'])
    .where('coin', '=', coin)
    .where('height', '<=', height)
    .orderBy('height', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ height: Number(r.height), hash: r.hash }));
}

/** Records what the node said: its tip (node up) and when; only while `holder` holds the lease. */
export async function recordNodeTip(db: DbOrTx, coin: Coin, holder: string, tip: number): Promise<void> {
  await sql`update chain_watchers set node_height = ${tip}::bigint, node_up = true, last_scan_at = now(),
        updated_at = now()
      where coin = ${coin} and holder = ${holder}`.execute(db);
}

/** Records a failure for the status page; `nodeDown` when the node did not answer (or answered an error). */
export async function recordWatcherError(
  db: DbOrTx,
  coin: Coin,
  holder: string,
  message: string,
  nodeDown: boolean,
): Promise<void> {
  await sql`update chain_watchers set last_error = ${message}, last_error_at = now(),
        node_up = case when ${nodeDown}::boolean then false else node_up end, updated_at = now()
      where coin = ${coin} and holder = ${holder}`.execute(db);
}

/** What the watcher records of a payment to the platform that matches no member. */
export interface UnmatchedInput {
  coin: Coin;
  txid: string;
  outputIndex: number;
  address: string;
  destinationTag: number | null;
  amount: string;
  chainAmount: string;
  blockHeight: number;
}

/** Records an unmatched payment once (a second sighting of the same output keeps the first row). */
export async function insertUnmatched(tx: Tx, u: UnmatchedInput): Promise<void> {
  await tx
    .insertInto('chain_unmatched')
    .values({
      coin: u.coin,
      txid: u.txid,
      output_index: u.outputIndex,
      address: u.address,
      destination_tag: u.destinationTag,
      amount: u.amount,
      chain_amount: u.chainAmount,
      block_height: u.blockHeight,
    })
    .onConflict((oc) =>
      oc
        .columns(['coin', 'txid', 'output_index'])
        .doUpdateSet({ block_height: u.blockHeight })
        .where('chain_unmatched.status', '=', 'UNMATCHED'),
    )
    .execute();
}

/**
 * Unmatched payments of `coin` in blocks above `forkHeight` left the chain: the undecided ones are forgotten
 * (recorded again if their transaction comes back). Returns the decided ones found there (reported by the caller).
 */
export async function forgetUnmatchedAbove(tx: Tx, coin: Coin, forkHeight: number): Promise<UnmatchedRow[]> {
  await tx
    .deleteFrom('chain_unmatched')
    .where('coin', '=', coin)
    .where('status', '=', 'UNMATCHED')
    .where('block_height', '>', forkHeight)
    .execute();
  return tx
    .selectFrom('chain_unmatched')
    .selectAll()
    .where('coin', '=', coin)
    .where('block_height', '>', forkHeight)
    .limit(100)
    .execute();
}

/** Unmatched payment `id` under its row lock, or undefined. */
export async function lockUnmatched(tx: Tx, id: number): Promise<UnmatchedRow | undefined> {
  return tx.selectFrom('chain_unmatched').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Writes an operator's decision on a locked UNMATCHED payment and answers the row. */
export async function decideUnmatched(
  tx: Tx,
  id: number,
  d:
    | { status: 'ASSIGNED'; memberId: number; transferId: number; reason: string; decidedBy: number }
    | { status: 'RETURNED'; returnTxid: string; reason: string; decidedBy: number },
): Promise<UnmatchedRow> {
  return tx
    .updateTable('chain_unmatched')
    .set({
      status: d.status,
      member_id: d.status === 'ASSIGNED' ? d.memberId : null,
      transfer_id: d.status === 'ASSIGNED' ? d.transferId : null,
      return_txid: d.status === 'RETURNED' ? d.returnTxid : null,
      reason: d.reason,
      decided_by: d.decidedBy,
      decided_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'UNMATCHED')
    .returningAll()
    .executeTakeFirstOrThrow();
}
