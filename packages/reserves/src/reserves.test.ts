import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTree, makeProof, placeLeaves, type ReserveProof, u128, verifyProof } from './index.ts';

const META = { coinCode: 'BTC', snapshotAt: '2026-11-26T00:00:00.000Z' };
const balances = fc.array(fc.bigInt({ min: 0n, max: 10n ** 18n }), { minLength: 0, maxLength: 40 });

function snapshot(values: bigint[]) {
  const leaves = placeLeaves(values.map((balance, key) => ({ key, balance })));
  return { leaves, tree: buildTree(leaves) };
}

function proofOf(values: bigint[], key: number): { proof: ReserveProof; total: bigint } {
  const { leaves, tree } = snapshot(values);
  const index = leaves.findIndex((l) => l.key === key);
  return { proof: makeProof(tree, leaves, index, META), total: values.reduce((a, b) => a + b, 0n) };
}

describe('the Merkle-sum tree of DECISIONS §20', () => {
  it('every member proof verifies against the published root, whose sum is the liabilities', () => {
    fc.assert(
      fc.property(balances, (values) => {
        const { leaves, tree } = snapshot(values);
        expect(tree.rootSum).toBe(values.reduce((a, b) => a + b, 0n));
        expect(leaves.length).toBeGreaterThanOrEqual(Math.max(2, values.length));
        expect(leaves.length & (leaves.length - 1)).toBe(0);
        leaves.forEach((leaf, index) => {
          if (leaf.key === null) return;
          const r = verifyProof(makeProof(tree, leaves, index, META));
          expect(r.ok).toBe(true);
          expect(makeProof(tree, leaves, index, META).leaf.balance).toBe(values[leaf.key]?.toString());
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a changed balance, root sum, sibling hash or sum, salt or index makes verification fail', () => {
    const nonEmpty = fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(nonEmpty, fc.nat(), fc.nat(), (values, pick, step) => {
        const key = pick % values.length;
        const { proof } = proofOf(values, key);
        const at = step % proof.path.length;
        const bump = (s: string) => (BigInt(s) + 1n).toString();
        const flip = (h: string) => (h[0] === '0' ? '1' : '0') + h.slice(1);
        const broken: ReserveProof[] = [
          { ...proof, leaf: { ...proof.leaf, balance: bump(proof.leaf.balance) } },
          { ...proof, rootSum: bump(proof.rootSum) },
          { ...proof, rootHash: flip(proof.rootHash) },
          { ...proof, leaf: { ...proof.leaf, salt: flip(proof.leaf.salt) } },
          { ...proof, leaf: { ...proof.leaf, index: proof.leaf.index ^ 1 } },
          { ...proof, path: proof.path.map((s, i) => (i === at ? { ...s, hash: flip(s.hash) } : s)) },
          { ...proof, path: proof.path.map((s, i) => (i === at ? { ...s, sum: bump(s.sum) } : s)) },
        ];
        for (const b of broken) expect(verifyProof(b).ok).toBe(false);
        expect(verifyProof(proof).ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a sibling cannot be under-counted: lowering one side sum with the balance moved elsewhere still fails', () => {
    const { proof } = proofOf([500n, 300n, 200n, 7n], 0);
    const sib = proof.path[0] as { hash: string; sum: string };
    // keep the root sum: move 100 from the sibling to the leaf's balance
    const moved = {
      ...proof,
      leaf: { ...proof.leaf, balance: (BigInt(proof.leaf.balance) + 100n).toString() },
      path: [{ ...sib, sum: (BigInt(sib.sum) - 100n).toString() }, ...proof.path.slice(1)],
    };
    expect(verifyProof(moved).ok).toBe(false);
  });

  it('no leaf can carry a negative balance, and a malformed proof is an answer, not an exception', () => {
    expect(() => placeLeaves([{ key: 1, balance: -1n }])).toThrow(RangeError);
    expect(() => u128(-1n)).toThrow(RangeError);
    const { proof } = proofOf([1n, 2n], 0);
    expect(verifyProof({ ...proof, leaf: { ...proof.leaf, balance: '-5' } }).ok).toBe(false);
    expect(verifyProof({ ...proof, path: [] }).ok).toBe(false);
    expect(verifyProof(null)).toMatchObject({ ok: false });
    expect(verifyProof('x')).toMatchObject({ ok: false });
  });

  it('matches the encoding written in DECISIONS §20, computed here with nothing but SHA-256', () => {
    const { proof } = proofOf([123_456_789n, 1n, 0n], 0);
    let hash = sha256(
      concatBytes(Uint8Array.of(0), hexToBytes(proof.leaf.salt), u128(BigInt(proof.leaf.balance))),
    );
    let sum = BigInt(proof.leaf.balance);
    proof.path.forEach((s, level) => {
      const sib = hexToBytes(s.hash);
      const left = (proof.leaf.index >> level) & 1;
      const ss = BigInt(s.sum);
      hash = left
        ? sha256(concatBytes(Uint8Array.of(1), sib, hash, u128(ss), u128(sum)))
        : sha256(concatBytes(Uint8Array.of(1), hash, sib, u128(sum), u128(ss)));
      sum += ss;
    });
    expect(bytesToHex(hash)).toBe(proof.rootHash);
    expect(sum.toString()).toBe(proof.rootSum);
  });

  it('places leaves in a random order with fresh salts each snapshot', () => {
    const values = Array.from({ length: 64 }, (_, i) => BigInt(i + 1));
    const a = snapshot(values);
    const b = snapshot(values);
    expect(a.tree.rootSum).toBe(b.tree.rootSum);
    expect(bytesToHex(a.tree.rootHash)).not.toBe(bytesToHex(b.tree.rootHash));
    expect(a.leaves.map((l) => l.key)).not.toEqual(b.leaves.map((l) => l.key));
  });

  it('places more leaves than one draw of random bytes covers (2,049 and more), every salt its own', () => {
    const leaves = placeLeaves(Array.from({ length: 5_000 }, (_, key) => ({ key, balance: 1n })));
    expect(leaves).toHaveLength(8_192);
    expect(new Set(leaves.map((l) => bytesToHex(l.salt))).size).toBe(8_192);
    expect(leaves.filter((l) => l.key !== null)).toHaveLength(5_000);
  });
});

describe('p2p-verify-reserves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reserves-'));
  const bin = join(import.meta.dirname, '..', 'bin', 'p2p-verify-reserves.mjs');

  it('exits 0 for a good proof and 1 once one number in the file is edited, 2 for an unreadable file', () => {
    const { proof } = proofOf([10n, 20n, 30n], 1);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(proof, null, 2));
    expect(execFileSync(process.execPath, [bin, good], { encoding: 'utf8' })).toMatch(/VERIFIED/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...proof, leaf: { ...proof.leaf, balance: '21' } }));
    const r = spawnSync(process.execPath, [bin, bad], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/NOT VERIFIED/);
    expect(spawnSync(process.execPath, [bin, join(dir, 'missing.json')]).status).toBe(2);
  }, 60_000);
});
