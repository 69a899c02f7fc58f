import { type Coin, type CoinReserves, fromUnits, type ReserveProofView, toUnits } from '@p2p/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { blobLeafAndPath, rowLeafAndPath } from './repo-proof.ts';
import type { ReserveSnapshotsTable } from './tables.ts';

type SnapshotRow = Selectable<ReserveSnapshotsTable>;

/** reserves / liabilities in percent with 2 decimals, rounded down; null when nothing is owed (no ratio to show). */
export function ratioPct(reserves: bigint, liabilities: bigint): string | null {
  if (liabilities === 0n) return null;
  const hundredths = (reserves * 10_000n) / liabilities;
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}

/** The public view of one snapshot (DECISIONS §20): liabilities and reserves in coin units, the ratio, the root. */
export function reservesView(r: SnapshotRow): CoinReserves {
  const liabilities = BigInt(r.root_sum);
  const reserves = r.reserves === null ? null : toUnits(r.reserves);
  return {
    coinCode: r.coin,
    snapshotAt: r.taken_at.toISOString(),
    liabilities: fromUnits(liabilities),
    reserves: reserves === null ? null : fromUnits(reserves),
    reservesSource: r.reserves_source,
    ratioPct: reserves === null ? null : ratioPct(reserves, liabilities),
    rootHash: r.root_hash,
    memberCount: r.member_count,
    addresses: r.addresses,
  };
}

/** GET /api/v1/reserves: each coin's newest snapshot, in the registry's coin order. */
export async function latestReserves(db: Db): Promise<CoinReserves[]> {
  const rows = await db
    .selectFrom('reserve_snapshots')
    .selectAll()
    .distinctOn('coin')
    .orderBy('coin')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(reservesView);
}

/**
 * GET /api/v1/reserves/proof (DECISIONS §20): the member's leaf of the coin's newest snapshot and the path of
 * sibling (hash, sum) pairs to the root's children, read from the stored levels (035: a few slices, whatever the
 * tree's size) or, for a snapshot taken before 035, from its rows. 404 NOT_FOUND when the coin has no snapshot
 * yet or the member had nothing in it.
 */
export async function memberProof(db: Db, memberId: number, coin: Coin): Promise<ReserveProofView> {
  const snap = await db
    .selectFrom('reserve_snapshots')
    .select(['id', 'taken_at', 'root_hash', 'root_sum', 'leaf_count', 'nodes_from_level'])
    .where('coin', '=', coin)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!snap) throw new AppError('NOT_FOUND', { reason: 'NO_SNAPSHOT' });
  const { nodes_from_level: from } = snap;
  const { leaf, path } =
    from === null
      ? await rowLeafAndPath(db, snap, memberId)
      : await blobLeafAndPath(db, { ...snap, nodes_from_level: from }, memberId);
  return {
    coinCode: coin,
    snapshotAt: snap.taken_at.toISOString(),
    rootHash: snap.root_hash,
    rootSum: BigInt(snap.root_sum).toString(),
    leaf,
    path,
  };
}
