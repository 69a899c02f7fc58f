import { buildTree, leafHash, pathOf, toHex } from '@p2p/reserves';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { ENTRY_BYTES, RECORD_BYTES } from './snapshot-tree.ts';

/** A member's leaf and the sibling (hash, sum) pairs from the leaf up to the root's children (DECISIONS §20). */
export interface LeafAndPath {
  leaf: { index: number; salt: string; balance: string };
  path: { hash: string; sum: string }[];
}

/** The snapshot fields a proof needs. */
export interface ProofSnapshot {
  id: number;
  leaf_count: number;
  nodes_from_level: number | null;
}

const notInSnapshot = () => new AppError('NOT_FOUND', { reason: 'NOT_IN_SNAPSHOT' });
const incomplete = () => new AppError('INVALID_STATE', { reason: 'SNAPSHOT_INCOMPLETE' });
const u128At = (b: Uint8Array, at: number) => BigInt(`0x${toHex(b.subarray(at, at + 16))}`);

/** The member's leaf index in a snapshot stored as blobs (035): one block of the member index, binary searched. */
async function leafIndexOf(db: Db, snapshotId: number, memberId: number): Promise<number> {
  const block = await db
    .selectFrom('reserve_member_blocks')
    .select('entries')
    .where('snapshot_id', '=', snapshotId)
    .where('first_member_id', '<=', memberId)
    .orderBy('first_member_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!block) throw notInSnapshot();
  const e = Buffer.from(block.entries.buffer, block.entries.byteOffset, block.entries.byteLength);
  let lo = 0;
  let hi = e.length / ENTRY_BYTES - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = e.readUInt32BE(mid * ENTRY_BYTES) * 4_294_967_296 + e.readUInt32BE(mid * ENTRY_BYTES + 4);
    if (id === memberId) return e.readUInt32BE(mid * ENTRY_BYTES + 8);
    if (id < memberId) lo = mid + 1;
    else hi = mid - 1;
  }
  throw notInSnapshot();
}

/**
 * The proof of a snapshot stored as blobs (035): the member's block of 2^min(nodes_from_level, depth) leaves is
 * read and rehashed with packages/reserves (the lowest steps of the path), the steps above are 48-byte slices of
 * the stored levels: one query of substring()s, whatever the tree's size. 404 NOT_IN_SNAPSHOT when the member had
 * no leaf; 409 SNAPSHOT_INCOMPLETE when a stored level is missing.
 */
export async function blobLeafAndPath(
  db: Db,
  snap: ProofSnapshot & { nodes_from_level: number },
  memberId: number,
): Promise<LeafAndPath> {
  const index = await leafIndexOf(db, snap.id, memberId);
  const depth = Math.log2(snap.leaf_count);
  const low = Math.min(snap.nodes_from_level, depth);
  const blockSize = 2 ** low;
  const wanted = [{ level: 0, idx: index - (index % blockSize), count: blockSize }];
  for (let k = low; k < depth; k++) wanted.push({ level: k, idx: (index >> k) ^ 1, count: 1 });
  // each slice from the one chunk of its level that holds it (a leaf block never straddles two chunks)
  const rows = await sql<{ level: number; part: Uint8Array }>`
    select w.level, substring(c.data from (w.idx - c.first_idx) * 48 + 1 for w.count * 48) as part
    from (values ${sql.join(wanted.map((w) => sql`(${w.level}::int, ${w.idx}::int, ${w.count}::int)`))}) w(level, idx, count)
    cross join lateral (
      select first_idx, data from reserve_levels
      where snapshot_id = ${snap.id} and level = w.level and first_idx <= w.idx
      order by first_idx desc limit 1) c`.execute(db);
  const parts = new Map(rows.rows.map((r) => [r.level, r.part]));
  const block = parts.get(0);
  if (!block || block.length !== blockSize * RECORD_BYTES) throw incomplete();
  const leaves = Array.from({ length: blockSize }, (_, i) => ({
    salt: block.subarray(i * RECORD_BYTES, i * RECORD_BYTES + 32),
    balance: u128At(block, i * RECORD_BYTES + 32),
  }));
  const mine = leaves[index % blockSize] as (typeof leaves)[number];
  const path = pathOf(buildTree(leaves), index % blockSize).map((s) => ({
    hash: toHex(s.hash),
    sum: s.sum.toString(),
  }));
  for (let k = low; k < depth; k++) {
    const node = parts.get(k);
    if (!node || node.length !== RECORD_BYTES) throw incomplete();
    path.push({ hash: toHex(node.subarray(0, 32)), sum: u128At(node, 32).toString() });
  }
  return { leaf: { index, salt: toHex(mine.salt), balance: mine.balance.toString() }, path };
}

/**
 * The proof of a snapshot stored as rows (026, before 035): the leaf and its sibling from reserve_leaves, the
 * nodes above from reserve_nodes. 404 NOT_IN_SNAPSHOT when the member had no leaf.
 */
export async function rowLeafAndPath(db: Db, snap: ProofSnapshot, memberId: number): Promise<LeafAndPath> {
  const leaf = await db
    .selectFrom('reserve_leaves')
    .select(['idx', 'salt', 'balance'])
    .where('snapshot_id', '=', snap.id)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  if (!leaf) throw notInSnapshot();
  const depth = Math.log2(snap.leaf_count);
  const sibling = await db
    .selectFrom('reserve_leaves')
    .select(['salt', 'balance'])
    .where('snapshot_id', '=', snap.id)
    .where('idx', '=', leaf.idx ^ 1)
    .executeTakeFirstOrThrow();
  const wanted = Array.from({ length: depth - 1 }, (_, k) => ({
    level: k + 1,
    idx: (leaf.idx >> (k + 1)) ^ 1,
  }));
  const nodes = wanted.length
    ? await db
        .selectFrom('reserve_nodes')
        .select(['level', 'idx', 'hash', 'sum'])
        .where('snapshot_id', '=', snap.id)
        .where((eb) => eb.or(wanted.map((w) => eb.and([eb('level', '=', w.level), eb('idx', '=', w.idx)]))))
        .orderBy('level')
        .execute()
    : [];
  if (nodes.length !== wanted.length) throw incomplete();
  return {
    leaf: { index: leaf.idx, salt: toHex(leaf.salt), balance: BigInt(leaf.balance).toString() },
    path: [
      {
        hash: toHex(leafHash(sibling.salt, BigInt(sibling.balance))),
        sum: BigInt(sibling.balance).toString(),
      },
      ...nodes.map((n) => ({ hash: toHex(n.hash), sum: BigInt(n.sum).toString() })),
    ],
  };
}
