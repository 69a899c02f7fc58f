import { type Coin, fromUnits, type ReservesSource, toUnits } from '@p2p/contract';
import {
  buildTree,
  type Holding,
  type MerkleSumTree,
  type PlacedLeaf,
  placeLeaves,
  toHex,
} from '@p2p/reserves';
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

/** Rows per INSERT ... unnest statement: one round trip per chunk, parameters as arrays. */
const CHUNK = 20_000;

/**
 * Every member's liabilities in one coin, base units: available + escrow (their ledger accounts) + their external
 * withdrawals not yet COMPLETED or REJECTED (the withdrawal_pending account, attributed to whoever a rejection
 * would refund). Members with nothing are left out. Throws 409 INVALID_STATE when the pending withdrawals do not
 * add up to the withdrawal_pending account: a snapshot never publishes a sum the ledger does not have.
 */
export async function liabilitiesOf(tx: Tx, coin: Coin): Promise<Holding<number>[]> {
  const rows = await sql<{ member_id: number; units: string }>`
    with each as (
      select member_id, balance as amount from ledger_accounts where coin = ${coin} and member_id is not null
      union all
      select coalesce(refund_member_id, member_id), amount from transfers
      where coin = ${coin} and type = 'WITHDRAW' and dest_type = 'EXTERNAL' and status not in ('COMPLETED', 'REJECTED')
    )
    select member_id::int as member_id, (sum(amount) * 100000000)::numeric(78, 0)::text as units
    from each group by member_id having sum(amount) > 0 order by member_id`.execute(tx);
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
  return rows.rows.map((r) => ({ key: r.member_id, balance: BigInt(r.units) }));
}

async function insertLeaves(tx: Tx, snapshotId: number, leaves: PlacedLeaf<number>[]): Promise<void> {
  for (let from = 0; from < leaves.length; from += CHUNK) {
    const part = leaves.slice(from, from + CHUNK);
    await sql`
      insert into reserve_leaves (snapshot_id, idx, member_id, salt, balance)
      select ${snapshotId}, i, m, decode(s, 'hex'), b::numeric
      from unnest(${part.map((_, k) => from + k)}::int[], ${part.map((l) => l.key)}::bigint[],
                  ${part.map((l) => toHex(l.salt))}::text[], ${part.map((l) => l.balance.toString())}::text[]) as t(i, m, s, b)`.execute(
      tx,
    );
  }
}

async function insertNodes(tx: Tx, snapshotId: number, tree: MerkleSumTree): Promise<void> {
  for (let level = 1; level < tree.levels.length; level++) {
    const { hashes, sums } = tree.levels[level] as MerkleSumTree['levels'][number];
    for (let from = 0; from < sums.length; from += CHUNK) {
      const to = Math.min(sums.length, from + CHUNK);
      const idx: number[] = [];
      const hex: string[] = [];
      for (let i = from; i < to; i++) {
        idx.push(i);
        hex.push(toHex(hashes.subarray(i * 32, i * 32 + 32)));
      }
      await sql`
        insert into reserve_nodes (snapshot_id, level, idx, hash, sum)
        select ${snapshotId}, ${level}, i, decode(h, 'hex'), s::numeric
        from unnest(${idx}::int[], ${hex}::text[], ${sums.slice(from, to).map(String)}::text[]) as t(i, h, s)`.execute(
        tx,
      );
    }
  }
}

export interface SnapshotOptions {
  reading: ReservesReading;
  takenBy: number | null;
  /** Take it only when the coin's newest snapshot is older than this (the daily job); checked under the lock. */
  ifOlderThanMs?: number;
}

/**
 * Takes one coin's snapshot (DECISIONS §20) in one REPEATABLE READ transaction, so the leaves are the ledger at
 * one instant: liabilities per member, leaves placed (salts, padding, random order), the tree built, and the
 * snapshot, its leaves and its nodes stored. Snapshots of one coin are serialized by an advisory lock. Returns
 * the snapshot id, or null when `ifOlderThanMs` found a newer one. Throws 409 INVALID_STATE (liabilitiesOf).
 */
export async function takeSnapshot(db: Db, coin: Coin, opts: SnapshotOptions): Promise<number | null> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`reserves:${coin}`}))`.execute(tx);
      if (opts.ifOlderThanMs !== undefined && (await newerThan(tx, coin, opts.ifOlderThanMs))) return null;
      const holdings = await liabilitiesOf(tx, coin);
      const leaves = placeLeaves(holdings);
      const tree = buildTree(leaves);
      const { units, source, attest } = opts.reading;
      const addresses = attest ? await attest(toHex(tree.rootHash)) : opts.reading.addresses;
      const row = await tx
        .insertInto('reserve_snapshots')
        .values({
          coin,
          root_hash: toHex(tree.rootHash),
          root_sum: tree.rootSum.toString(),
          leaf_count: leaves.length,
          member_count: holdings.length,
          reserves: units === null ? null : fromUnits(units),
          reserves_source: source,
          addresses: JSON.stringify(addresses),
          taken_by: opts.takenBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertLeaves(tx, row.id, leaves);
      await insertNodes(tx, row.id, tree);
      return row.id;
    });
}

async function newerThan(tx: Tx, coin: Coin, ms: number): Promise<boolean> {
  const r = await sql<{ fresh: boolean }>`
    select exists (select 1 from reserve_snapshots where coin = ${coin}
                   and taken_at > now() - make_interval(secs => ${ms / 1000})) as fresh`.execute(tx);
  return r.rows[0]?.fresh === true;
}
