import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Coin } from '@p2p/contract';
import { createBase58check } from '@scure/base';
import { HDKey, type Versions } from '@scure/bip32';
import { NETWORK, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import { encodeAccountID } from 'ripple-address-codec';

export type ChainNetwork = 'mainnet' | 'testnet';

/** BIP-44 coin types and purposes of DECISIONS §5: BTC native segwit (BIP-84), the others BIP-44. */
export const ACCOUNT_PATHS: Record<Coin, string> = {
  BTC: "m/84'/0'/0'",
  ETH: "m/44'/60'/0'",
  TRX: "m/44'/195'/0'",
  XRP: "m/44'/144'/0'",
};
/** On testnet BTC uses coin type 1 (BIP-44); the other chains keep their coin type. */
export const TESTNET_BTC_PATH = "m/84'/1'/0'";

export const base58check = createBase58check(sha256);

/**
 * SLIP-132 version bytes of the account-level extended public keys we accept (xpub, ypub, zpub and their
 * testnet forms): a wallet exporting a BIP-84 account usually writes zpub/vpub, and the key inside is the
 * same. Private versions are given too because @scure/bip32 wants both; a private key is refused anyway.
 */
const VERSIONS: Record<string, Versions> = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  ypub: { public: 0x049d7cb2, private: 0x049d7878 },
  zpub: { public: 0x04b24746, private: 0x04b2430c },
  tpub: { public: 0x043587cf, private: 0x04358394 },
  upub: { public: 0x044a5262, private: 0x044a4e28 },
  vpub: { public: 0x045f1cf6, private: 0x045f18bc },
};

/**
 * Parses a watch-only account key (xpub/ypub/zpub/tpub/upub/vpub, base58check). Throws a readable
 * Error for anything else, including extended private keys: no private key may live in the app
 * (DECISIONS §5).
 */
export function parseAccountKey(key: string): HDKey {
  const versions = VERSIONS[key.slice(0, 4)];
  if (!versions) throw new Error('not a watch-only extended public key (xpub, zpub, tpub, vpub...)');
  const hd = HDKey.fromExtendedKey(key, versions);
  if (hd.privateKey) throw new Error('an extended private key was given; only public keys are accepted');
  return hd;
}

/**
 * The deposit address of one compressed secp256k1 public key (33 bytes) on `coin`:
 * BTC bech32 P2WPKH (bc1q/tb1q), ETH EIP-55, TRX base58check with 0x41, XRP classic r-address.
 */
export function addressFromPublicKey(coin: Coin, publicKey: Uint8Array, network: ChainNetwork): string {
  switch (coin) {
    case 'BTC': {
      const address = p2wpkh(publicKey, network === 'mainnet' ? NETWORK : TEST_NETWORK).address;
      if (!address) throw new Error('p2wpkh gave no address');
      return address;
    }
    case 'ETH':
      return toChecksumAddress(bytesToHex(evmAccountId(publicKey)));
    case 'TRX':
      return base58check.encode(Uint8Array.of(0x41, ...evmAccountId(publicKey)));
    case 'XRP':
      // AccountID = RIPEMD-160(SHA-256(pubkey)), the same hash160 as Bitcoin's.
      return encodeAccountID(hash160(publicKey));
  }
}

/**
 * Address of child `0/index` of the account key (external chain, non-hardened), as a wallet holding the
 * matching private key would derive it.
 */
export function deriveAddress(coin: Coin, account: HDKey, index: number, network: ChainNetwork): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError(`derivation index out of range: ${index}`);
  }
  const child = account.deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  return addressFromPublicKey(coin, child.publicKey, network);
}

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
function evmAccountId(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}
