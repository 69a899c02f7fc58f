import { type Coin, fromUnits, type ReservesSource, toUnits } from '@p2p/contract';
import { MAX_U128, paddedSize, toHex } from '@p2p/reserves';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
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

/**
 * Every member's liabilities in one coin, base units, into the transaction's temporary table `reserve_owed`
 * (member_id, units): available + escrow (their ledger accounts) + their external withdrawals not yet COMPLETED
 * or REJECTED (the withdrawal_pending account, attributed to whoever a rejection would refund). Members with
 * nothing are left out. Returns how many members are owed something. Throws 409 INVALID_STATE when the
 * pending withdrawals do not add up to the withdrawal_pending account: a snapshot never publishes a sum the
 * ledger does not have.
 */
async function collectLiabilities(tx: Tx, coin: Coin): Promise<number> {
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
  await sql`create temp table reserve_owed (member_id bigint not null, units numeric(78, 0) not null)
    on commit drop`.execute(tx);
  const r = await sql`
    insert into reserve_owed (member_id, units)
    with each as (
      select member_id, balance as amount from ledger_accounts where coin = ${coin} and member_id is not null
      union all
      select coalesce(refund_member_id, member_id), amount from transfers
      where coin = ${coin} and type = 'WITHDRAW' and dest_type = 'EXTERNAL' and status not in ('COMPLETED', 'REJECTED')
    )
    select member_id, (sum(amount) * 100000000)::numeric(78, 0)
    from each group by member_id having sum(amount) > 0`.execute(tx);
  return Number(r.numAffectedRows ?? 0n);
}

/**
 * The leaves (DECISIONS §20): one per member owed something and balance-0 padding up to `size`, each with 32
 * random bytes of salt (reserve_salt), placed in the order of their salts: a uniformly random order, fresh each
 * snapshot, that says nothing about whose leaf is where.
 */
async function placeLeavesInDb(tx: Tx, snapshotId: number, padding: number): Promise<void> {
  await sql`
    insert into reserve_leaves (snapshot_id, idx, member_id, salt, balance)
    select ${snapshotId}, (row_number() over (order by salt))::int - 1, member_id, salt, units
    from (select member_id, units, reserve_salt() as salt from reserve_owed
          union all
          select null, 0, reserve_salt() from generate_series(1, ${padding}::int)) x`.execute(tx);
}

/**
 * Builds every level above the leaves in the database with the encoding of packages/reserves: a leaf's hash is
 * SHA-256(0x00 || salt || balance u128), a parent's SHA-256(0x01 || left hash || right hash || left sum || right
 * sum) with sums as 16-byte big-endian (reserve_u128), children paired as 2i, 2i+1. Returns the root.
 */
async function buildLevels(
  tx: Tx,
  snapshotId: number,
  depth: number,
): Promise<{ hash: Uint8Array; sum: bigint }> {
  await sql`
    insert into reserve_nodes (snapshot_id, level, idx, hash, sum)
    select ${snapshotId}, 1, idx / 2,
      sha256(decode('01', 'hex') || string_agg(h, ''::bytea order by idx) || string_agg(reserve_u128(balance), ''::bytea order by idx)),
      sum(balance)
    from (select idx, balance, sha256(decode('00', 'hex') || salt || reserve_u128(balance)) as h
          from reserve_leaves where snapshot_id = ${snapshotId}) l
    group by idx / 2`.execute(tx);
  for (let level = 2; level <= depth; level++) {
    await sql`
      insert into reserve_nodes (snapshot_id, level, idx, hash, sum)
      select ${snapshotId}, ${level}::int, idx / 2,
        sha256(decode('01', 'hex') || string_agg(hash, ''::bytea order by idx) || string_agg(reserve_u128(sum), ''::bytea order by idx)),
        sum(sum)
      from reserve_nodes where snapshot_id = ${snapshotId} and level = ${level - 1}::int
      group by idx / 2`.execute(tx);
  }
  const root = await sql<{ hash: Uint8Array; sum: string }>`
    select hash, sum::text as sum from reserve_nodes
    where snapshot_id = ${snapshotId} and level = ${depth}::int and idx = 0`.execute(tx);
  const r = root.rows[0];
  if (!r) throw new AppError('INVALID_STATE', { reason: 'SNAPSHOT_INCOMPLETE' });
  const sum = BigInt(r.sum);
  // every sum below the root is at most the root's: one check keeps all of them inside 16 bytes
  if (sum > MAX_U128) throw new AppError('INVALID_STATE', { reason: 'LIABILITIES_TOO_LARGE' });
  return { hash: r.hash, sum };
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
 * one instant: liabilities per member, leaves placed (salts, padding, random order), the tree built, and the
 * snapshot, its leaves and its nodes stored, all inside the database (nothing per member crosses to the API).
 * Snapshots of one coin are serialized by an advisory lock. Returns the snapshot id, or null when
 * `ifOlderThanMs` found a newer one. Throws 409 INVALID_STATE (collectLiabilities; LIABILITIES_TOO_LARGE when
 * the root's sum does not fit 16 bytes).
 */
export async function takeSnapshot(db: Db, coin: Coin, opts: SnapshotOptions): Promise<number | null> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`reserves:${coin}`}))`.execute(tx);
      if (opts.ifOlderThanMs !== undefined && (await newerThan(tx, coin, opts.ifOlderThanMs))) return null;
      // the leaves' sort by salt and the per-level aggregates sort a million rows: in memory, not on disk
      await sql`set local work_mem = '256MB'`.execute(tx);
      const clock = phaseClock(opts.timings);
      const members = await collectLiabilities(tx, coin);
      clock('liabilities');
      const size = paddedSize(members);
      const { units, source, attest } = opts.reading;
      const row = await tx
        .insertInto('reserve_snapshots')
        .values({
          coin,
          // the root is filled in below, in this same transaction: nobody reads the row before it commits
          root_hash: '0'.repeat(64),
          root_sum: '0',
          leaf_count: size,
          member_count: members,
          reserves: units === null ? null : fromUnits(units),
          reserves_source: source,
          addresses: JSON.stringify([]),
          taken_by: opts.takenBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await placeLeavesInDb(tx, row.id, size - members);
      clock('leaves');
      const root = await buildLevels(tx, row.id, Math.log2(size));
      clock('tree');
      const rootHash = toHex(root.hash);
      const addresses = attest ? await attest(rootHash) : opts.reading.addresses;
      await tx
        .updateTable('reserve_snapshots')
        .set({ root_hash: rootHash, root_sum: root.sum.toString(), addresses: JSON.stringify(addresses) })
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
