import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { SignMessageRequest, SignMessageResponse } from '@p2p/signer-protocol';
import { privateKeyToAccount } from 'viem/accounts';
import { addressOf, childKey, privateHex, type SignerKeys } from './keys.ts';

/** r, s and recovery of a secp256k1 signature over a 32-byte digest (RFC 6979, low s). */
function signDigest(digest: Uint8Array, privateKey: Uint8Array): { rs: Uint8Array; recovery: number } {
  const sig = secp256k1.Signature.fromBytes(
    secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' }),
    'recovered',
  );
  return { rs: sig.toBytes('compact'), recovery: sig.recovery ?? 0 };
}

function varint(n: number): Uint8Array {
  // Messages are capped at 4096 bytes by the protocol: one or three bytes suffice.
  return n < 0xfd ? Uint8Array.of(n) : Uint8Array.of(0xfd, n & 0xff, n >> 8);
}

/** Bitcoin's signed-message digest: sha256d(varstr("Bitcoin Signed Message:\n") || varstr(message)). */
export function bitcoinMessageDigest(message: string): Uint8Array {
  const magic = new TextEncoder().encode('Bitcoin Signed Message:\n');
  const body = new TextEncoder().encode(message);
  return sha256(
    sha256(Uint8Array.from([...varint(magic.length), ...magic, ...varint(body.length), ...body])),
  );
}

/**
 * A control signature by the key at `path` (DECISIONS §20): ETH personal_sign (EIP-191, viem); BTC BIP-137
 * (base64 of header 39 + recovery, for a P2WPKH address, then r || s); XRP and TRX secp256k1 over
 * sha256(message), hex r || s || recovery byte, so that the verifier recovers the key and compares the address.
 */
export async function signMessage(keys: SignerKeys, req: SignMessageRequest): Promise<SignMessageResponse> {
  const key = childKey(keys, req.coin, req.path);
  const address = addressOf(keys, req.coin, key);
  const priv = key.privateKey ?? new Uint8Array();
  if (req.coin === 'ETH') {
    const signature = await privateKeyToAccount(privateHex(key)).signMessage({ message: req.message });
    return { address, message: req.message, signature, scheme: 'eip191' };
  }
  if (req.coin === 'BTC') {
    const { rs, recovery } = signDigest(bitcoinMessageDigest(req.message), priv);
    const signature = Buffer.from([39 + recovery, ...rs]).toString('base64');
    return { address, message: req.message, signature, scheme: 'bip137' };
  }
  const { rs, recovery } = signDigest(sha256(new TextEncoder().encode(req.message)), priv);
  const signature = Buffer.from([...rs, recovery]).toString('hex');
  return { address, message: req.message, signature, scheme: 'secp256k1-sha256' };
}
