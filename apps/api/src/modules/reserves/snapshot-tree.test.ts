import { buildTree, MAX_U128, makeProof, pathOf, toHex, verifyProof } from '@p2p/reserves';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHUNK_RECORDS,
  ENTRY_BYTES,
  Liabilities,
  NODES_FROM_LEVEL,
  RECORD_BYTES,
  randomPermutation,
  SnapshotTree,
  type StoredChunk,
} from './snapshot-tree.ts';

/**
 * The API's fast tree (native SHA-256 over flat buffers, hashed chunk by chunk) against packages/reserves, the
 * reference that verifies proofs (DECISIONS §20): same leaves, same root, same nodes, proofs that verify.
 */
const META = { coinCode: 'BTC', snapshotAt: '2026-11-26T00:00:00.000Z' };

function owedOf(values: readonly bigint[], idStep = 3): Liabilities {
  const owed = new Liabilities();
  values.forEach((v, i) => {
    owed.push(1 + i * idStep, v.toString());
  });
  return owed;
}

/** Runs the tree to its end; answers every stored chunk and the leaves in index order as the package takes them. */
function hashAll(tree: SnapshotTree) {
  const chunks: StoredChunk[] = [];
  // a yielded chunk's buffers are reused for the next: copy them, as storing them does
  for (const out of tree.chunks()) for (const c of out) chunks.push({ ...c, data: Buffer.from(c.data) });
  const leafChunks = chunks.filter((c) => c.level === 0).sort((a, b) => a.firstIdx - b.firstIdx);
  const all = Buffer.concat(leafChunks.map((c) => c.data));
  const leaves = Array.from({ length: all.length / RECORD_BYTES }, (_, i) => ({
    salt: all.subarray(i * RECORD_BYTES, i * RECORD_BYTES + 32),
    balance: BigInt(`0x${all.subarray(i * RECORD_BYTES + 32, (i + 1) * RECORD_BYTES).toString('hex')}`),
  }));
  return { chunks, leaves };
}

function leafIndexOf(tree: SnapshotTree, memberId: number): number | undefined {
  for (const b of tree.memberBlocks) {
    for (let at = 0; at < b.entries.length; at += ENTRY_BYTES) {
      const id = b.entries.readUInt32BE(at) * 2 ** 32 + b.entries.readUInt32BE(at + 4);
      if (id === memberId) return b.entries.readUInt32BE(at + 8);
    }
  }
  return undefined;
}

function checkAgainstPackage(values: readonly bigint[]): void {
  const tree = new SnapshotTree(owedOf(values));
  const { chunks, leaves } = hashAll(tree);
  expect(leaves.length).toBe(tree.size);
  const reference = buildTree(leaves);
  expect(toHex(tree.rootHash)).toBe(toHex(reference.rootHash));
  expect(tree.rootSum).toBe(values.reduce((a, b) => a + b, 0n));
  // every stored node is the reference's node at that level and index
  for (const c of chunks.filter((x) => x.level > 0)) {
    expect(c.level).toBeGreaterThanOrEqual(NODES_FROM_LEVEL);
    const level = reference.levels[c.level];
    if (!level) throw new Error(`no level ${c.level}`);
    for (let i = 0; i < c.data.length / RECORD_BYTES; i++) {
      const at = c.firstIdx + i;
      expect(toHex(c.data.subarray(i * RECORD_BYTES, i * RECORD_BYTES + 32))).toBe(
        toHex(level.hashes.subarray(at * 32, at * 32 + 32)),
      );
    }
  }
  // each member's leaf holds their balance, its proof verifies; the other leaves are balance-0 padding
  const used = new Set<number>();
  values.forEach((v, i) => {
    const index = leafIndexOf(tree, 1 + i * 3);
    if (index === undefined) throw new Error('member not indexed');
    used.add(index);
    expect(leaves[index]?.balance).toBe(v);
    const placed = leaves.map((l) => ({ key: null, ...l }));
    expect(verifyProof(makeProof(reference, placed, index, META)).ok).toBe(true);
    expect(pathOf(reference, index)).toHaveLength(tree.depth);
  });
  leaves.forEach((l, i) => {
    if (!used.has(i)) expect(l.balance).toBe(0n);
  });
}

describe("the API's snapshot tree (DECISIONS §20 encoding)", () => {
  it('builds the same tree as packages/reserves for random balance sets, sums beyond 2^64 included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 30n }), { minLength: 0, maxLength: 70 }),
        (values) => checkAgainstPackage(values),
      ),
      { numRuns: 40 },
    );
  });

  it('stores several chunks of leaves and the levels above them when the tree outgrows one chunk', () => {
    const values = Array.from({ length: CHUNK_RECORDS + 5 }, (_, i) => BigInt(1 + ((i * 7919) % 100_000)));
    const tree = new SnapshotTree(owedOf(values));
    const { chunks, leaves } = hashAll(tree);
    expect(tree.size).toBe(2 * CHUNK_RECORDS);
    expect(chunks.filter((c) => c.level === 0).map((c) => c.firstIdx)).toEqual([0, CHUNK_RECORDS]);
    expect(toHex(tree.rootHash)).toBe(toHex(buildTree(leaves).rootHash));
    expect(tree.rootSum).toBe(values.reduce((a, b) => a + b, 0n));
    // the level every chunk ends at (16) is stored whole, from the levels above the chunks
    expect(chunks.find((c) => c.level === Math.log2(CHUNK_RECORDS))?.data.length).toBe(2 * RECORD_BYTES);
  });

  it('gives fresh salts and a fresh order each snapshot', () => {
    const values = Array.from({ length: 50 }, (_, i) => BigInt(i + 1));
    const a = new SnapshotTree(owedOf(values));
    const b = new SnapshotTree(owedOf(values));
    hashAll(a);
    hashAll(b);
    expect(toHex(a.rootHash)).not.toBe(toHex(b.rootHash));
    expect(leafIndexOf(a, 1) === leafIndexOf(b, 1) && leafIndexOf(a, 4) === leafIndexOf(b, 4)).toBe(false);
  });

  it('refuses a sum beyond 16 bytes, a non-positive or malformed balance and unordered members', () => {
    const tree = new SnapshotTree(owedOf([MAX_U128, 1n]));
    expect(() => hashAll(tree)).toThrow(RangeError);
    const owed = new Liabilities();
    expect(() => owed.push(1, '0')).toThrow(RangeError);
    expect(() => owed.push(1, '-5')).toThrow(RangeError);
    expect(() => owed.push(1, '1.5')).toThrow(RangeError);
    expect(() => owed.push(1, (MAX_U128 + 1n).toString())).toThrow(RangeError);
    owed.push(7, '1');
    expect(() => owed.push(7, '1')).toThrow(RangeError);
    expect(() => owed.push(3, '1')).toThrow(RangeError);
  });

  it('permutes uniformly enough: every item reaches every position', () => {
    const seen = Array.from({ length: 4 }, () => new Set<number>());
    for (let r = 0; r < 200; r++) {
      randomPermutation(4).forEach((item, pos) => {
        seen[pos]?.add(item);
      });
    }
    for (const s of seen) expect(s.size).toBe(4);
    expect([...randomPermutation(1000)].sort((x, y) => x - y)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i),
    );
  });
});
