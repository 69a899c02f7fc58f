import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { defineAdapter } from './define.ts';

/** EIP-55 mixed-case checksum encoding of 40 hex digits (with or without 0x). */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.replace(/^0x/i, '').toLowerCase();
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] ?? '';
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** The last 20 bytes of keccak-256 of the uncompressed public key without its 0x04 prefix (ETH, TRX). */
export function evmAccountId(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/**
 * Ethereum: EIP-55 addresses, the same on mainnet and testnets. All-lower and all-upper spellings carry no
 * checksum and are accepted; a mixed-case one must match it. Stored in the EIP-55 form.
 */
export const eth = defineAdapter({
  coin: 'ETH',
  addressFromPublicKey: (publicKey) => toChecksumAddress(bytesToHex(evmAccountId(publicKey))),
  isValidAddress(address) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
    const body = address.slice(2);
    if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
    return toChecksumAddress(body) === address;
  },
  normalizeAddress: (address) => toChecksumAddress(address.slice(2)),
});
