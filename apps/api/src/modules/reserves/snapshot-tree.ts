import { createHash, hash as oneShotHash, randomBytes, randomFillSync } from 'node:crypto';
import { paddedSize } from '@p2p/reserves';

/**
 * A snapshot's Merkle-sum tree built in the API process with native SHA-256 over flat buffers (no object per
 * member), byte for byte the encoding of DECISIONS §20 that packages/reserves verifies:
 *   leaf   = SHA-256(0x00 || salt (32) || balance (16-byte BE))
 *   parent = SHA-256(0x01 || left hash || right hash || left sum (16-byte BE) || right sum (16-byte BE))
 * Layout (035_reserves_blobs.sql): every leaf and every node is a 48-byte record, so a proof reads its slices
 * with substring(): leaves as salt (32) || balance (16), nodes as hash (32) || sum (16), in index order.
 */

/** Bytes of one leaf or node record. */
export const RECORD_BYTES = 48;
/** Bytes of one member index entry: member id (8-byte BE) || leaf index (4-byte BE). */
export const ENTRY_BYTES = 12;
/** Records per stored chunk of a level (reserve_levels.first_idx): 3 MiB per row and per statement. */
export const CHUNK_RECORDS = 65_536;
/** Member index entries per stored block (reserve_member_blocks): a proof reads one block of 12 KiB. */
export const ENTRIES_PER_BLOCK = 1024;
/**
 * The lowest node level stored: levels 1-3 (7/8 of the nodes) are not stored; a proof rehashes the 16 leaves of
 * its block (15 hashes) instead. Recorded per snapshot (reserve_snapshots.nodes_from_level).
 */
export const NODES_FROM_LEVEL = 4;

const TWO_32 = 4_294_967_296;

/** SHA-256 of `data` as a 32-byte Buffer: the one-shot crypto.hash where the runtime has it (Node >= 20.12). */
const sha256: (data: Uint8Array) => Uint8Array =
  typeof oneShotHash === 'function'
    ? (data) => oneShotHash('sha256', data, 'buffer')
    : (data) => createHash('sha256').update(data).digest();

/** Members owed something, in ascending member id, grown as the liabilities stream in. */
export class Liabilities {
  count = 0;
  ids = new Float64Array(1024);
  /** Balances as 16-byte big-endian base units, member i at 16 * i. */
  balances = Buffer.alloc(1024 * 16);
  private lastId = -1;

  /**
   * Appends a member (ids strictly ascending) owed `units` (a decimal string of base units, > 0, < 2^128).
   * Throws RangeError otherwise (a caller maps it to INVALID_STATE: the ledger answered something impossible).
   */
  push(memberId: number, units: string): void {
    if (!(memberId > this.lastId)) throw new RangeError('member ids must come in ascending order');
    if (!/^[1-9][0-9]*$/.test(units)) throw new RangeError('a liability must be a positive integer');
    if (this.count === this.ids.length) this.grow();
    const at = this.count * 16;
    if (units.length <= 15) {
      const v = Number(units);
      this.balances.writeUInt32BE(Math.floor(v / TWO_32), at + 8);
      this.balances.writeUInt32BE(v % TWO_32, at + 12);
    } else {
      let v = BigInt(units);
      if (v >> 128n !== 0n) throw new RangeError('a balance does not fit in 16 bytes');
      for (let i = 15; i >= 0; i--, v >>= 8n) this.balances[at + i] = Number(v & 0xffn);
    }
    this.ids[this.count++] = memberId;
    this.lastId = memberId;
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2);
    ids.set(this.ids);
    const balances = Buffer.alloc(this.balances.length * 2);
    this.balances.copy(balances);
    this.ids = ids;
    this.balances = balances;
  }
}

/**
 * A run of consecutive records of one stored level, from record `firstIdx` on (a row of reserve_levels): level 0
 * = leaves (salt || balance), level >= NODES_FROM_LEVEL = nodes (hash || sum).
 */
export interface StoredChunk {
  level: number;
  firstIdx: number;
  data: Buffer;
}

/**
 * A uniformly random permutation of 0..n-1 (Fisher-Yates over crypto.randomBytes, rejection sampling so that no
 * position is favoured): leaf position p holds item perm[p].
 */
export function randomPermutation(n: number): Uint32Array {
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  let pool = new Uint32Array(0);
  let at = 0;
  for (let i = n - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = TWO_32 - (TWO_32 % bound);
    let r: number;
    do {
      if (at === pool.length) {
        const bytes = randomBytes(Math.min(4 * 65_536, 4 * (i + 16)));
        pool = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
        at = 0;
      }
      r = pool[at++] as number;
    } while (r >= limit);
    const j = r % bound;
    const t = perm[i] as number;
    perm[i] = perm[j] as number;
    perm[j] = t;
  }
  return perm;
}

/**
 * Places the members as leaves (DECISIONS §20): padded to a power of two (>= 2) with balance-0 leaves, in a
 * random order. Returns which member each position holds (>= count: padding) and each member's leaf index.
 */
export function placeLeaves(count: number): { size: number; perm: Uint32Array; indexOf: Uint32Array } {
  const size = paddedSize(count);
  const perm = randomPermutation(size);
  const indexOf = new Uint32Array(count);
  for (let p = 0; p < size; p++) {
    const item = perm[p] as number;
    if (item < count) indexOf[item] = p;
  }
  return { size, perm, indexOf };
}

/** Writes a + b (16-byte BE each) into out at `o`; throws RangeError when the sum needs more than 16 bytes. */
function addU128(a: Uint8Array, ao: number, b: Uint8Array, bo: number, out: Uint8Array, o: number): void {
  let carry = 0;
  for (let k = 15; k >= 0; k--) {
    const s = (a[ao + k] as number) + (b[bo + k] as number) + carry;
    out[o + k] = s & 0xff;
    carry = s >> 8;
  }
  if (carry) throw new RangeError('liabilities do not fit in 16 bytes');
}

/** A fresh buffer of 32-bit aligned records (Buffer.allocUnsafe may hand out an unaligned slice of its pool). */
function records(count: number): Buffer {
  return Buffer.from(new ArrayBuffer(count * RECORD_BYTES));
}

/** 32-bit words over a buffer whose byteOffset is a multiple of 4 (copies of 32 bytes as 8 moves, no call). */
function words(b: Uint8Array): Uint32Array {
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
}

/**
 * Hash input scratch: the tag at byte 7, so that the hashes and sums after it start on 32-bit boundaries;
 * `input` is the bytes from the tag on.
 */
function scratch(tag: number, length: number): { bytes: Buffer; w: Uint32Array; input: Buffer } {
  const bytes = Buffer.from(new ArrayBuffer(8 + length - 1));
  bytes[7] = tag;
  return { bytes, w: words(bytes), input: bytes.subarray(7) };
}

/** The level-1 nodes of `count` leaf records, written into `out`: each pair's leaf hashes, then their parent. */
function levelOne(leaves: Buffer, count: number, out: Buffer): void {
  const lw = words(leaves);
  const leaf = scratch(0, 49); // 0x00 || salt || balance
  const parent = scratch(1, 97); // 0x01 || left hash || right hash || left sum || right sum
  for (let i = 0; i < count / 2; i++) {
    const l = 24 * i; // words: 12 per record, two records per pair
    for (let k = 0; k < 12; k++) leaf.w[2 + k] = lw[l + k] as number;
    parent.bytes.set(sha256(leaf.input), 8);
    for (let k = 0; k < 12; k++) leaf.w[2 + k] = lw[l + 12 + k] as number;
    parent.bytes.set(sha256(leaf.input), 40);
    for (let k = 0; k < 4; k++) {
      parent.w[18 + k] = lw[l + 8 + k] as number;
      parent.w[22 + k] = lw[l + 20 + k] as number;
    }
    out.set(sha256(parent.input), i * RECORD_BYTES);
    addU128(parent.bytes, 72, parent.bytes, 88, out, i * RECORD_BYTES + 32);
  }
}

/**
 * The level above the first `2 * count` records of `level`, written over its first `count` records (in place:
 * parent i is written after its children 2i and 2i + 1 are read, and no later parent reads a record below 2i + 2).
 */
function levelAboveInPlace(level: Buffer, count: number): void {
  const bw = words(level);
  const parent = scratch(1, 97);
  for (let i = 0; i < count; i++) {
    const l = 24 * i;
    for (let k = 0; k < 8; k++) {
      parent.w[2 + k] = bw[l + k] as number;
      parent.w[10 + k] = bw[l + 12 + k] as number;
    }
    for (let k = 0; k < 4; k++) {
      parent.w[18 + k] = bw[l + 8 + k] as number;
      parent.w[22 + k] = bw[l + 20 + k] as number;
    }
    level.set(sha256(parent.input), i * RECORD_BYTES);
    addU128(parent.bytes, 72, parent.bytes, 88, level, i * RECORD_BYTES + 32);
  }
}

/** The member index in blocks of ENTRIES_PER_BLOCK (member ids ascending, as Liabilities holds them). */
export function memberBlocks(owed: Liabilities, indexOf: Uint32Array): MemberBlock[] {
  const blocks: MemberBlock[] = [];
  for (let first = 0; first < owed.count; first += ENTRIES_PER_BLOCK) {
    const n = Math.min(ENTRIES_PER_BLOCK, owed.count - first);
    const entries = Buffer.allocUnsafe(n * ENTRY_BYTES);
    for (let k = 0; k < n; k++) {
      const id = owed.ids[first + k] as number;
      entries.writeUInt32BE(Math.floor(id / TWO_32), k * ENTRY_BYTES);
      entries.writeUInt32BE(id % TWO_32, k * ENTRY_BYTES + 4);
      entries.writeUInt32BE(indexOf[first + k] as number, k * ENTRY_BYTES + 8);
    }
    blocks.push({ firstMemberId: owed.ids[first] as number, entries });
  }
  return blocks;
}

/** A block of the member index: its first member id and its entries (member id, leaf index), ascending. */
export interface MemberBlock {
  firstMemberId: number;
  entries: Buffer;
}

/**
 * One snapshot's tree (DECISIONS §20), placed on construction and hashed chunk by chunk by `chunks()`, so that
 * at most one chunk of CHUNK_RECORDS leaves (3 MiB) is in memory at a time and the caller stores each chunk while
 * the next is hashed: memory about 40 bytes per member (liabilities, placement, member index), whatever the
 * level sizes. About 2 * size SHA-256 calls.
 */
export class SnapshotTree {
  readonly size: number;
  readonly depth: number;
  readonly memberBlocks: MemberBlock[];
  private readonly perm: Uint32Array;
  private root: Buffer | null = null;

  constructor(private readonly owed: Liabilities) {
    const { size, perm, indexOf } = placeLeaves(owed.count);
    this.size = size;
    this.depth = Math.log2(size);
    this.perm = perm;
    this.memberBlocks = memberBlocks(owed, indexOf);
  }

  /**
   * The stored chunks: per chunk of leaves, its leaf records and its share of the node levels NODES_FROM_LEVEL
   * and up; then the levels above the chunks. A yielded chunk's buffers are reused once the next is asked for:
   * store them first. Throws RangeError when the liabilities' sum does not fit 16 bytes.
   */
  *chunks(): Generator<StoredChunk[]> {
    const per = Math.min(this.size, CHUNK_RECORDS);
    const top = Math.log2(per); // the level at which a chunk's subtree ends in one record
    const tops = records(this.size / per);
    const leaves = records(per);
    const work = records(per / 2);
    for (let c = 0; c < this.size / per; c++) {
      this.fillLeaves(leaves, c * per);
      const out: StoredChunk[] = [{ level: 0, firstIdx: c * per, data: leaves }];
      levelOne(leaves, per, work);
      for (let k = 1, count = per / 2; k < top; k++, count /= 2) {
        if (k >= NODES_FROM_LEVEL) out.push(copyOf(work, k, (c * per) >> k, count));
        levelAboveInPlace(work, count / 2);
      }
      work.copy(tops, c * RECORD_BYTES, 0, RECORD_BYTES);
      yield out;
    }
    const out: StoredChunk[] = [];
    for (let k = top, count = this.size / per; k < this.depth; k++, count /= 2) {
      if (k >= NODES_FROM_LEVEL) out.push(copyOf(tops, k, 0, count));
      levelAboveInPlace(tops, count / 2);
    }
    if (out.length) yield out;
    this.root = tops.subarray(0, RECORD_BYTES);
  }

  /** The root's hash and sum, once chunks() has run to its end. */
  get rootHash(): Uint8Array {
    return Uint8Array.from(this.finished().subarray(0, 32));
  }

  get rootSum(): bigint {
    return BigInt(`0x${this.finished().subarray(32, 48).toString('hex')}`);
  }

  private finished(): Buffer {
    if (!this.root) throw new Error('the tree is not hashed yet');
    return this.root;
  }

  /** Leaves first..first + leaves.length / 48 - 1: a fresh random salt each, the member's balance or 0. */
  private fillLeaves(leaves: Buffer, first: number): void {
    randomFillSync(leaves);
    const { balances, count } = this.owed;
    for (let i = 0; i < leaves.length / RECORD_BYTES; i++) {
      const item = this.perm[first + i] as number;
      const at = i * RECORD_BYTES + 32;
      if (item < count) balances.copy(leaves, at, item * 16, item * 16 + 16);
      else leaves.fill(0, at, at + 16);
    }
  }
}

/** A copy of the first `count` records of `level` as the stored chunk of level `k` from record `firstIdx`. */
function copyOf(level: Buffer, k: number, firstIdx: number, count: number): StoredChunk {
  return { level: k, firstIdx, data: Buffer.from(level.subarray(0, count * RECORD_BYTES)) };
}
