import { randomBytes } from '@noble/hashes/utils.js';
import { HASH_BYTES, leafHash, parentHash, SALT_BYTES, toHex } from './encoding.ts';

/** One member's entry in a snapshot: who (never published) and their liabilities in base units (10^-8 coin). */
export interface Holding<K> {
  key: K;
  balance: bigint;
}

/** A leaf as stored with a snapshot: its place, its salt and its balance; `key` is null for padding. */
export interface PlacedLeaf<K> {
  key: K | null;
  salt: Uint8Array;
  balance: bigint;
}

/** Every level of the tree, leaves first: hashes flat (32 bytes each), sums as bigint. */
export interface MerkleSumTree {
  levels: { hashes: Uint8Array; sums: bigint[] }[];
  rootHash: Uint8Array;
  rootSum: bigint;
}

/** One step of a proof: the sibling's hash and sum. */
export interface PathStep {
  hash: Uint8Array;
  sum: bigint;
}

/** Uniform integers below `bound` from a buffer of random bytes (rejection sampling, no modulo bias). */
function randomBelow(source: () => number, bound: number): number {
  const limit = 0x1_0000_0000 - (0x1_0000_0000 % bound);
  for (;;) {
    const r = source();
    if (r < limit) return r % bound;
  }
}

/** A stream of random 32-bit integers drawn in chunks of 64 KiB (a call per integer would dominate at 10^6 leaves). */
function randomU32Stream(): () => number {
  let buf = new Uint32Array(0);
  let at = 0;
  return () => {
    if (at >= buf.length) {
      const bytes = randomBytes(RANDOM_CHUNK);
      buf = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      at = 0;
    }
    return buf[at++] as number;
  };
}

/** Largest request of @noble/hashes' randomBytes (crypto.getRandomValues' limit). */
const RANDOM_CHUNK = 65_536;

/** `n` cryptographically random bytes, drawn RANDOM_CHUNK at a time (a tree of 2^20 leaves needs 32 MiB of salt). */
function randomBytesMany(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += RANDOM_CHUNK) out.set(randomBytes(Math.min(RANDOM_CHUNK, n - at)), at);
  return out;
}

/** The leaf count after padding: a power of two, at least 2 so that the root always has two children. */
export function paddedSize(n: number): number {
  let size = 2;
  while (size < n) size *= 2;
  return size;
}

/**
 * Places the holdings of one snapshot as leaves (DECISIONS §20): a fresh 32-byte random salt each, padding to a
 * power of two (at least 2) with balance-0 leaves of random salt, and a random order (Fisher-Yates over a
 * cryptographic source), so that neither a leaf's place nor its neighbours say whose it is.
 * Throws RangeError for a negative balance.
 */
export function placeLeaves<K>(holdings: readonly Holding<K>[]): PlacedLeaf<K>[] {
  const size = paddedSize(holdings.length);
  const salts = randomBytesMany(size * SALT_BYTES);
  const leaves: PlacedLeaf<K>[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const h = holdings[i];
    if (h && h.balance < 0n) throw new RangeError('a leaf cannot carry a negative balance');
    const salt = salts.subarray(i * SALT_BYTES, (i + 1) * SALT_BYTES);
    leaves[i] = h ? { key: h.key, salt, balance: h.balance } : { key: null, salt, balance: 0n };
  }
  const next = randomU32Stream();
  for (let i = size - 1; i > 0; i--) {
    const j = randomBelow(next, i + 1);
    const t = leaves[i] as PlacedLeaf<K>;
    leaves[i] = leaves[j] as PlacedLeaf<K>;
    leaves[j] = t;
  }
  return leaves;
}

/**
 * Builds the Merkle-sum tree over leaves in their stored order (a power of two, at least 2, as placeLeaves makes
 * them). Deterministic: the same leaves give the same root, so a stored snapshot's tree is rebuilt to answer proofs.
 * Throws RangeError for a leaf count that is not a power of two >= 2 or a negative balance.
 */
export function buildTree(leaves: readonly { salt: Uint8Array; balance: bigint }[]): MerkleSumTree {
  const n = leaves.length;
  if (n < 2 || (n & (n - 1)) !== 0) throw new RangeError('the leaf count must be a power of two, at least 2');
  const hashes = new Uint8Array(n * HASH_BYTES);
  const sums: bigint[] = new Array(n);
  leaves.forEach((leaf, i) => {
    hashes.set(leafHash(leaf.salt, leaf.balance), i * HASH_BYTES);
    sums[i] = leaf.balance;
  });
  let level: MerkleSumTree['levels'][number] = { hashes, sums };
  const levels = [level];
  while (level.sums.length > 1) {
    level = parentLevel(level);
    levels.push(level);
  }
  return { levels, rootHash: level.hashes.slice(0, HASH_BYTES), rootSum: level.sums[0] as bigint };
}

function parentLevel(below: { hashes: Uint8Array; sums: bigint[] }): { hashes: Uint8Array; sums: bigint[] } {
  const count = below.sums.length / 2;
  const hashes = new Uint8Array(count * HASH_BYTES);
  const sums: bigint[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const l = 2 * i;
    const r = l + 1;
    const ls = below.sums[l] as bigint;
    const rs = below.sums[r] as bigint;
    const left = below.hashes.subarray(l * HASH_BYTES, r * HASH_BYTES);
    const right = below.hashes.subarray(r * HASH_BYTES, (r + 1) * HASH_BYTES);
    hashes.set(parentHash(left, right, ls, rs), i * HASH_BYTES);
    sums[i] = ls + rs;
  }
  return { hashes, sums };
}

/**
 * The path of leaf `index`: its sibling's (hash, sum) at each level from the leaves up to the root's children
 * (DECISIONS §20). Throws RangeError for an index outside the tree.
 */
export function pathOf(tree: MerkleSumTree, index: number): PathStep[] {
  const leafCount = tree.levels[0]?.sums.length ?? 0;
  if (!Number.isInteger(index) || index < 0 || index >= leafCount) throw new RangeError('no such leaf');
  const path: PathStep[] = [];
  let at = index;
  for (const level of tree.levels.slice(0, -1)) {
    const sibling = at ^ 1;
    path.push({
      hash: level.hashes.slice(sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES),
      sum: level.sums[sibling] as bigint,
    });
    at >>= 1;
  }
  return path;
}

/** The root hash as the lower-case hex a proof and the public page carry. */
export function rootHex(tree: MerkleSumTree): string {
  return toHex(tree.rootHash);
}
