import { toUnits } from '@p2p/contract';
import { buildTree, placeLeaves, toHex, verifyProof } from '@p2p/reserves';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { memberProof } from './queries.ts';
import { takeSnapshot } from './repo-snapshot.ts';

/**
 * How a snapshot is stored (035_reserves_blobs.sql) and read back (DECISIONS §20): a tree deep enough to have
 * stored node levels answers every member's proof from the stored slices, and a snapshot stored as rows before
 * 035 still answers its proofs.
 */
let t: TestApp;
const funded: { id: number; amount: string }[] = [];
const NONE = { source: 'NONE' as const, units: null, addresses: [] };

beforeAll(async () => {
  t = await createTestApp({ RESERVES_SNAPSHOT_HOURS: '0' });
  // 40 members: 64 leaves, depth 6, so the proofs read levels 4 and 5 from the stored chunks
  for (let i = 0; i < 40; i++) {
    const m = await createMember(t);
    const amount = `${i + 1}.${String(i * 7).padStart(6, '0')}`;
    await fundMember(t, m.id, 'TRX', amount);
    funded.push({ id: m.id, amount });
  }
}, 180_000);
afterAll(() => t?.close());

describe('snapshot storage', () => {
  it("answers every member's proof of a deeper tree from the stored levels, each verifying with the package", async () => {
    const id = await takeSnapshot(t.app.deps.db, 'TRX', { reading: NONE, takenBy: null });
    const snap = await t.app.deps.db
      .selectFrom('reserve_snapshots')
      .select(['leaf_count', 'member_count', 'nodes_from_level', 'root_sum'])
      .where('id', '=', id ?? 0)
      .executeTakeFirstOrThrow();
    expect(snap).toMatchObject({ leaf_count: 64, member_count: 40, nodes_from_level: 4 });
    const total = funded.reduce((a, f) => a + toUnits(f.amount), 0n);
    expect(BigInt(snap.root_sum)).toBe(total);
    const indexes = new Set<number>();
    for (const f of funded) {
      const proof = await memberProof(t.app.deps.db, f.id, 'TRX');
      expect(proof.leaf.balance).toBe(toUnits(f.amount).toString());
      expect(proof.path).toHaveLength(6);
      expect(verifyProof(proof)).toMatchObject({ ok: true, rootSum: total.toString() });
      indexes.add(proof.leaf.index);
    }
    expect(indexes.size).toBe(40);
    const stranger = await createMember(t);
    await expect(memberProof(t.app.deps.db, stranger.id, 'TRX')).rejects.toMatchObject({ status: 404 });
  });

  it('still answers the proofs of a snapshot stored as rows before 035', async () => {
    const members = funded.slice(0, 5);
    const leaves = placeLeaves(members.map((m) => ({ key: m.id, balance: toUnits(m.amount) })));
    const tree = buildTree(leaves);
    const db = t.app.deps.db;
    const snap = await db
      .insertInto('reserve_snapshots')
      .values({
        coin: 'ETH',
        root_hash: toHex(tree.rootHash),
        root_sum: tree.rootSum.toString(),
        leaf_count: leaves.length,
        member_count: members.length,
        reserves: null,
        reserves_source: 'NONE',
        addresses: '[]',
        taken_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('reserve_leaves')
      .values(
        leaves.map((l, idx) => ({
          snapshot_id: snap.id,
          idx,
          member_id: l.key,
          salt: l.salt,
          balance: l.balance.toString(),
        })),
      )
      .execute();
    const nodes = tree.levels.slice(1, -1).flatMap((level, k) =>
      level.sums.map((sum, idx) => ({
        snapshot_id: snap.id,
        level: k + 1,
        idx,
        hash: level.hashes.slice(idx * 32, idx * 32 + 32),
        sum: sum.toString(),
      })),
    );
    await db.insertInto('reserve_nodes').values(nodes).execute();
    for (const m of members) {
      const proof = await memberProof(db, m.id, 'ETH');
      expect(proof.leaf.balance).toBe(toUnits(m.amount).toString());
      expect(verifyProof(proof).ok).toBe(true);
    }
  });
});
