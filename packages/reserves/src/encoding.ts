import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';

/**
 * The byte encoding of DECISIONS §20, the one thing a verifier outside this repository must reproduce:
 *   leaf   = SHA-256(0x00 || salt (32 bytes) || balance (16-byte big-endian))
 *   parent = SHA-256(0x01 || left hash || right hash || left sum (16-byte BE) || right sum (16-byte BE))
 * Both child sums enter the parent's hash, so a prover cannot shrink one side's sum without changing the root.
 */

/** The largest balance or sum a 16-byte field holds. */
export const MAX_U128 = (1n << 128n) - 1n;
export const SALT_BYTES = 32;
export const HASH_BYTES = 32;

/** A quantity as 16 bytes big-endian. Throws RangeError for a negative value or one beyond 2^128 - 1. */
export function u128(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError('a balance or sum cannot be negative');
  if (value > MAX_U128) throw new RangeError('a balance or sum does not fit in 16 bytes');
  const out = new Uint8Array(16);
  let v = value;
  for (let i = 15; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const LEAF_TAG = Uint8Array.of(0);
const PARENT_TAG = Uint8Array.of(1);

/** A leaf's hash from its 32-byte salt and its balance in base units (10^-8 coin). */
export function leafHash(salt: Uint8Array, balance: bigint): Uint8Array {
  if (salt.length !== SALT_BYTES) throw new RangeError(`a salt is ${SALT_BYTES} bytes`);
  return sha256(concatBytes(LEAF_TAG, salt, u128(balance)));
}

/** A parent's hash from its children's hashes and sums; its sum is leftSum + rightSum. */
export function parentHash(
  left: Uint8Array,
  right: Uint8Array,
  leftSum: bigint,
  rightSum: bigint,
): Uint8Array {
  return sha256(concatBytes(PARENT_TAG, left, right, u128(leftSum), u128(rightSum)));
}

/** Lower-case hex, as hashes and salts travel in a proof. */
export const toHex = bytesToHex;

/** Parses lower- or upper-case hex of exactly `bytes` bytes; throws TypeError otherwise. */
export function fromHex(hex: string, bytes: number): Uint8Array {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]*$/.test(hex) || hex.length !== bytes * 2) {
    throw new TypeError(`expected ${bytes} bytes of hex`);
  }
  return hexToBytes(hex.toLowerCase());
}

/** Parses a decimal string of base units (no sign, no leading zeros but "0"); throws TypeError otherwise. */
export function fromDecimal(text: string): bigint {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]*)$/.test(text))
    throw new TypeError('expected a decimal string');
  const value = BigInt(text);
  if (value > MAX_U128) throw new TypeError('a quantity beyond 16 bytes');
  return value;
}
