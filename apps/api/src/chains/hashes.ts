import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/** Base58check with Bitcoin's alphabet and double SHA-256 checksum (BTC legacy addresses, TRON, xpubs). */
export const base58check = createBase58check(sha256);

/** RIPEMD-160 of SHA-256: Bitcoin's hash160, also the XRP Ledger's AccountID of a public key. */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** Base58check-decoded payload of `s`, or null when it is not base58check. */
export function decodeBase58check(s: string): Uint8Array | null {
  try {
    return base58check.decode(s);
  } catch {
    return null;
  }
}
