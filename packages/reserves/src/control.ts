import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, base58xrp, base64, bech32 } from '@scure/base';
import { verifyMessage } from 'viem';

/*
 * Control signatures of proof of reserves (DECISIONS §20): the signer signs, with the key of each platform
 * address, a message naming the coin, the address and the snapshot's root hash, so a signature cannot have been
 * made before the snapshot and cannot be reused for another address or snapshot. Checked here with libraries
 * only (viem, @noble/curves, @noble/hashes, @scure/base), in the browser and in the command alike.
 */

/** The signature schemes of the signer's POST /v1/sign-message (packages/signer-protocol messageScheme). */
export type ControlScheme = 'eip191' | 'bip137' | 'secp256k1-sha256';

/** What a reserves entry of GET /api/v1/reserves carries about one address. */
export interface ControlClaim {
  coinCode: string;
  address: string;
  message: string | null;
  signature: string | null;
  scheme: string | null;
}

/**
 * The message the signer signs for `address` of `coin` in the snapshot whose root is `rootHash` (lower-case hex).
 * One line of ASCII, the same for every chain's signed-message scheme.
 */
export function controlMessage(coin: string, address: string, rootHash: string): string {
  return `P2P proof of reserves: ${coin} ${address} controlled at snapshot ${rootHash}`;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const hash160 = (b: Uint8Array) => ripemd160(sha256(b));
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function varint(n: number): number[] {
  return n < 0xfd ? [n] : [0xfd, n & 0xff, n >> 8];
}

/** Bitcoin's signed-message digest: sha256d(varstr("Bitcoin Signed Message:\n") || varstr(message)). */
function bitcoinDigest(message: string): Uint8Array {
  const magic = utf8('Bitcoin Signed Message:\n');
  const body = utf8(message);
  return sha256(
    sha256(Uint8Array.from([...varint(magic.length), ...magic, ...varint(body.length), ...body])),
  );
}

function recover(rs: Uint8Array, recovery: number, digest: Uint8Array) {
  return secp256k1.Signature.fromBytes(rs, 'compact').addRecoveryBit(recovery).recoverPublicKey(digest);
}

/** BIP-137 for a P2WPKH address (header 39..42): the recovered key's hash160 is the address's v0 program. */
function verifyBip137(address: string, message: string, signature: string): boolean {
  const sig = base64.decode(signature);
  const header = sig[0] ?? 0;
  if (sig.length !== 65 || header < 39 || header > 42) return false;
  const point = recover(sig.subarray(1), header - 39, bitcoinDigest(message));
  const decoded = bech32.decode(address.toLowerCase() as `${string}1${string}`);
  const [version, ...words] = decoded.words;
  if (version !== 0) return false;
  return same(bech32.fromWords(words), hash160(point.toBytes(true)));
}

/** base58 with a 4-byte double-SHA-256 checksum in `alphabet`; null when the checksum fails. */
function base58Payload(coder: typeof base58, text: string): Uint8Array | null {
  const raw = coder.decode(text);
  const body = raw.subarray(0, raw.length - 4);
  return same(raw.subarray(raw.length - 4), sha256(sha256(body)).subarray(0, 4)) ? body : null;
}

/**
 * XRP and TRX: r || s || recovery over sha256(message), hex; the recovered key must make the address (XRP: an
 * account id, hash160 of the compressed key, version 0x00; TRX: 0x41 and the last 20 bytes of keccak-256 of the
 * uncompressed key).
 */
function verifyRecovered(coin: string, address: string, message: string, signature: string): boolean {
  if (!/^[0-9a-f]{130}$/.test(signature)) return false;
  const sig = Uint8Array.from(signature.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  const point = recover(sig.subarray(0, 64), sig[64] ?? 0, sha256(utf8(message)));
  if (coin === 'XRP') {
    const body = base58Payload(base58xrp, address);
    return body !== null && body[0] === 0 && same(body.subarray(1), hash160(point.toBytes(true)));
  }
  if (coin === 'TRX') {
    const body = base58Payload(base58, address);
    const id = keccak_256(point.toBytes(false).subarray(1)).subarray(12);
    return body !== null && body[0] === 0x41 && same(body.subarray(1), id);
  }
  return false;
}

/**
 * True when `claim` carries a valid signature by the key of its address over exactly `expectedMessage`
 * (controlMessage of the coin, address and the snapshot's root). False for a missing, malformed or wrong
 * signature, another message, or a scheme that does not fit the coin; never throws.
 */
export async function verifyControl(claim: ControlClaim, expectedMessage: string): Promise<boolean> {
  const { coinCode, address, message, signature, scheme } = claim;
  if (!signature || message !== expectedMessage) return false;
  try {
    if (coinCode === 'ETH' && scheme === 'eip191') {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !/^0x[0-9a-f]{130}$/i.test(signature)) return false;
      return await verifyMessage({
        address: address as `0x${string}`,
        message,
        signature: signature as `0x${string}`,
      });
    }
    if (coinCode === 'BTC' && scheme === 'bip137') return verifyBip137(address, message, signature);
    if ((coinCode === 'XRP' || coinCode === 'TRX') && scheme === 'secp256k1-sha256') {
      return verifyRecovered(coinCode, address, message, signature);
    }
    return false;
  } catch {
    return false;
  }
}
