import { type Coin, fromUnits, type ReservesSource, toUnits } from '@p2p/contract';
import { toHex } from '@p2p/reserves';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { Liabilities, NODES_FROM_LEVEL, SnapshotTree, type StoredChunk } from './snapshot-tree.ts';
import type { StoredReserveAddress } from './tables.ts';

/** What the platform's addresses hold for one coin, read before the snapshot's transaction (DECISIONS §20). */
export interface ReservesReading {
  source: ReservesSource;
  /** Base units (10^-8 coin); null when nothing is known (source NONE). */
  units: bigint | null;
  addresses: StoredReserveAddress[];
  /**
   * Signs each address's control message over the snapshot's root (lower-case hex) and answers the addresses
   * with their signatures (DECISIONS §20); called inside the snapshot's transaction once the tree is built.
   */
  attest?: (rootHash: string) => Promise<StoredReserveAddress[]>;
}

/** Reads a coin's reserves: the nodes' balances of its addresses, or an operator's declared figure. */
export type ReservesReader = (coin: Coin) => Promise<ReservesReading>;

/** Rows per FETCH of the liabilities cursor: a few MB of rows in the API at a time. */
const FETCH_ROWS = 50_000;

/**
 * Every member's liabilities in one coin, base units, ascending member id: available + escrow (their ledger
 * accounts) + their external withdrawals not yet COMPLETED or REJECTED (the withdrawal_pending account,
 * attributed to whoever a rejection would refund). Members with nothing are left out. Read through a cursor in
 * the caller's transaction (one repeatable-read view of the ledger) into flat buffers, no object per member.
 * Throws 409 INVALID_STATE when the pending withdrawals do not add up to the withdrawal_pending account (a
 * snapshot never publishes a sum the ledger does not have).
 */
async function collectLiabilities(tx: Tx, coin: Coin): Promise<Liabilities> {
  const check = await sql<{ pending: string; account: string }>`
    select coalesce((select sum(amount) from transfers where coin = ${coin} and type = 'WITHDRAW'
             and dest_type = 'EXTERNAL' and status not in ('COMPLETED', 'REJECTED')), 0)::text as pending,
           coalesce((select balance from ledger_accounts where coin = ${coin} and kind = 'withdrawal_pending'
             and member_id is null), 0)::text as account`.execute(tx);
  const c = check.rows[0];
  if (c && toUnits(c.pending) !== toUnits(c.account)) {
    throw new AppError('INVALID_STATE', {
      reason: 'PENDING_MISMATCH',
      pending: c.pending,
      ledger: c.account,
    });
  }
  await sql`declare reserve_owed no scroll cursor for
    with each as (
      select member_id, balance as amount from ledger_accounts where coin = ${coin} and member_id is not null
      union all
      select coalesce(refund_member_id, member_id), amount from transfers
      where coin = ${coin} and type = 'WITHDRAW' and dest_type = 'EXTERNAL' and status not in ('COMPLETED', 'REJECTED')
    )
    select member_id, (sum(amount) * 100000000)::numeric(78, 0)::text as units
    from each group by member_id having sum(amount) > 0 order by member_id`.execute(tx);
  const owed = new Liabilities();
  for (;;) {
    const batch = await sql<{ member_id: number | string; units: string }>`
      fetch forward ${sql.lit(FETCH_ROWS)} from reserve_owed`.execute(tx);
    for (const r of batch.rows) owed.push(Number(r.member_id), r.units);
    if (batch.rows.length < FETCH_ROWS) break;
  }
  await sql`close reserve_owed`.execute(tx);
  return owed;
}

/**
 * Hashes the tree chunk by chunk and stores each chunk as it comes (035_reserves_blobs.sql): rows of at most
 * CHUNK_RECORDS records (binary parameters of 3 MiB at most), one statement per chunk of leaves; then the member
 * index in blocks of ENTRIES_PER_BLOCK entries. PostgreSQL writes one chunk while the API hashes the next.
 * Throws 409 INVALID_STATE LIABILITIES_TOO_LARGE when the sum does not fit 16 bytes (nothing is committed).
 */
async function hashAndStore(tx: Tx, snapshotId: number, tree: SnapshotTree): Promise<void> {
  const chunks = tree.chunks();
  for (;;) {
    let next: IteratorResult<StoredChunk[]>;
    try {
      next = chunks.next();
    } catch (err) {
      if (err instanceof RangeError) throw new AppError('INVALID_STATE', { reason: 'LIABILITIES_TOO_LARGE' });
      throw err;
    }
    if (next.done) break;
    await tx
      .insertInto('reserve_levels')
      .values(
        next.value.map((c) => ({
          snapshot_id: snapshotId,
          level: c.level,
          first_idx: c.firstIdx,
          data: c.data,
        })),
      )
      .execute();
  }
  // 1,000 rows of 3 parameters per statement, far below PostgreSQL's 65,535 parameters
  for (let at = 0; at < tree.memberBlocks.length; at += 1000) {
    await tx
      .insertInto('reserve_member_blocks')
      .values(
        tree.memberBlocks.slice(at, at + 1000).map((b) => ({
          snapshot_id: snapshotId,
          first_member_id: b.firstMemberId,
          entries: b.entries,
        })),
      )
      .execute();
  }
}

export interface SnapshotOptions {
  reading: ReservesReading;
  takenBy: number | null;
  /** Take it only when the coin's newest snapshot is older than this (the daily job); checked under the lock. */
  ifOlderThanMs?: number;
  /** Filled with the milliseconds of each phase (liabilities, tree, store) when given (the bench, logs). */
  timings?: Record<string, number>;
}

/**
 * Takes one coin's snapshot (DECISIONS §20) in one REPEATABLE READ transaction, so the leaves are the ledger at
 * one instant: liabilities per member streamed into the API, leaves placed (salts, padding, random order) and the
 * tree hashed there chunk by chunk (snapshot-tree.ts), each chunk stored as it is hashed, then the root. Snapshots
 * of one coin are serialized by an advisory lock. Returns the snapshot id, or null when `ifOlderThanMs` found a
 * newer one. Throws 409 INVALID_STATE (collectLiabilities; LIABILITIES_TOO_LARGE when the root's sum does not fit
 * 16 bytes).
 */
export async function takeSnapshot(db: Db, coin: Coin, opts: SnapshotOptions): Promise<number | null> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`reserves:${coin}`}))`.execute(tx);
      if (opts.ifOlderThanMs !== undefined && (await newerThan(tx, coin, opts.ifOlderThanMs))) return null;
      // the group by member_id of a million ledger rows sorts in memory, not on disk
      await sql`set local work_mem = '256MB'`.execute(tx);
      const clock = phaseClock(opts.timings);
      const owed = await collectLiabilities(tx, coin);
      clock('liabilities');
      const tree = new SnapshotTree(owed);
      const { units, source } = opts.reading;
      const row = await tx
        .insertInto('reserve_snapshots')
        .values({
          coin,
          // the root is filled in below, in this same transaction: nobody reads the row before it commits
          root_hash: '0'.repeat(64),
          root_sum: '0',
          leaf_count: tree.size,
          member_count: owed.count,
          reserves: units === null ? null : fromUnits(units),
          reserves_source: source,
          addresses: JSON.stringify([]),
          taken_by: opts.takenBy,
          nodes_from_level: NODES_FROM_LEVEL,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await hashAndStore(tx, row.id, tree);
      clock('tree and store');
      const rootHash = toHex(tree.rootHash);
      const addresses = opts.reading.attest ? await opts.reading.attest(rootHash) : opts.reading.addresses;
      await tx
        .updateTable('reserve_snapshots')
        .set({ root_hash: rootHash, root_sum: tree.rootSum.toString(), addresses: JSON.stringify(addresses) })
        .where('id', '=', row.id)
        .execute();
      return row.id;
    });
}

/** Records the time since the previous mark under `name` in `into` (no-op without it). */
function phaseClock(into: Record<string, number> | undefined): (name: string) => void {
  let last = performance.now();
  return (name) => {
    const now = performance.now();
    if (into) into[name] = now - last;
    last = now;
  };
}

async function newerThan(tx: Tx, coin: Coin, ms: number): Promise<boolean> {
  const r = await sql<{ fresh: boolean }>`
    select exists (select 1 from reserve_snapshots where coin = ${coin}
                   and taken_at > now() - make_interval(secs => ${ms / 1000})) as fresh`.execute(tx);
  return r.rows[0]?.fresh === true;
}
