import { z } from 'zod';
import { fromDecimal, fromHex, HASH_BYTES, leafHash, parentHash, SALT_BYTES, toHex } from './encoding.ts';
import { type MerkleSumTree, type PlacedLeaf, pathOf } from './tree.ts';

const hex = (bytes: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes} bytes of lower-case hex`);
const units = z.string().regex(/^(0|[1-9][0-9]{0,38})$/, 'a decimal string of base units');

/** The proof JSON of DECISIONS §20, exactly as GET /api/v1/reserves/proof answers and the command reads it. */
export const reserveProofSchema = z.object({
  coinCode: z.string().min(1).max(10),
  snapshotAt: z.string().min(1).max(40),
  rootHash: hex(HASH_BYTES),
  rootSum: units,
  leaf: z.object({ index: z.number().int().min(0), salt: hex(SALT_BYTES), balance: units }),
  path: z
    .array(z.object({ hash: hex(HASH_BYTES), sum: units }))
    .min(1)
    .max(64),
});
export type ReserveProof = z.infer<typeof reserveProofSchema>;

/** The proof of the leaf at `index` of a snapshot's tree. Throws RangeError for an index outside the tree. */
export function makeProof(
  tree: MerkleSumTree,
  leaves: readonly PlacedLeaf<unknown>[],
  index: number,
  meta: { coinCode: string; snapshotAt: string },
): ReserveProof {
  const leaf = leaves[index];
  if (!leaf) throw new RangeError('no such leaf');
  return {
    coinCode: meta.coinCode,
    snapshotAt: meta.snapshotAt,
    rootHash: toHex(tree.rootHash),
    rootSum: tree.rootSum.toString(),
    leaf: { index, salt: toHex(leaf.salt), balance: leaf.balance.toString() },
    path: pathOf(tree, index).map((s) => ({ hash: toHex(s.hash), sum: s.sum.toString() })),
  };
}

/** One level of a verification: which side the sibling was on, and the node it produced (hash, sum). */
export interface VerifyStep {
  level: number;
  siblingSide: 'left' | 'right';
  siblingHash: string;
  siblingSum: string;
  hash: string;
  sum: string;
}

export type VerifyResult =
  | { ok: true; leafHash: string; steps: VerifyStep[]; rootHash: string; rootSum: string }
  | { ok: false; reason: string; steps: VerifyStep[] };

/**
 * Verifies a proof (DECISIONS §20) from its own content alone: recomputes the leaf hash from salt and balance,
 * climbs the path (the sibling on the left where the bit of `index` at that level is 1), and compares the
 * computed root hash and sum with the published ones. Never throws: a malformed proof is `{ok: false, reason}`.
 */
export function verifyProof(input: unknown): VerifyResult {
  const parsed = reserveProofSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `malformed proof: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(),
      steps: [],
    };
  }
  const p = parsed.data;
  if (p.leaf.index >= 2 ** p.path.length) {
    return { ok: false, reason: 'the leaf index does not fit the path length', steps: [] };
  }
  const steps: VerifyStep[] = [];
  try {
    let hash = leafHash(fromHex(p.leaf.salt, SALT_BYTES), fromDecimal(p.leaf.balance));
    const first = toHex(hash);
    let sum = fromDecimal(p.leaf.balance);
    p.path.forEach((s, level) => {
      const sibHash = fromHex(s.hash, HASH_BYTES);
      const sibSum = fromDecimal(s.sum);
      const siblingLeft = Math.floor(p.leaf.index / 2 ** level) % 2 === 1;
      hash = siblingLeft ? parentHash(sibHash, hash, sibSum, sum) : parentHash(hash, sibHash, sum, sibSum);
      sum += sibSum;
      steps.push({
        level,
        siblingSide: siblingLeft ? 'left' : 'right',
        siblingHash: s.hash,
        siblingSum: s.sum,
        hash: toHex(hash),
        sum: sum.toString(),
      });
    });
    if (toHex(hash) !== p.rootHash)
      return { ok: false, reason: 'the computed root hash differs from the published root', steps };
    if (sum.toString() !== p.rootSum)
      return { ok: false, reason: 'the computed root sum differs from the published sum', steps };
    return { ok: true, leafHash: first, steps, rootHash: p.rootHash, rootSum: p.rootSum };
  } catch (err) {
    return { ok: false, reason: (err as Error).message, steps };
  }
}
