import { bech32, bech32m } from '@scure/base';
import { NETWORK, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import type { ChainNetwork } from './adapter.ts';
import { defineAdapter } from './define.ts';
import { decodeBase58check } from './hashes.ts';

/** Bitcoin Core's regtest: testnet's base58 version bytes and WIF, its own bech32 prefix `bcrt`. */
const REGTEST_NETWORK: typeof NETWORK = { ...TEST_NETWORK, bech32: 'bcrt' };

/** The @scure/btc-signer network (bech32 prefix, base58 versions) of the app's network. */
export function btcNetwork(network: ChainNetwork): typeof NETWORK {
  return network === 'mainnet' ? NETWORK : network === 'testnet' ? TEST_NETWORK : REGTEST_NETWORK;
}

/** BIP-173 human-readable parts and base58 version bytes (P2PKH, P2SH) per network. */
const BTC_PARAMS: Record<ChainNetwork, { hrp: string; p2pkh: number; p2sh: number }> = {
  mainnet: { hrp: 'bc', p2pkh: 0x00, p2sh: 0x05 },
  testnet: { hrp: 'tb', p2pkh: 0x6f, p2sh: 0xc4 },
  regtest: { hrp: 'bcrt', p2pkh: 0x6f, p2sh: 0xc4 },
};

/** A decoded segwit address: witness version and program. */
export interface SegwitAddress {
  hrp: string;
  version: number;
  program: Uint8Array;
}

/**
 * Decodes a segwit address per BIP-173 and BIP-350: bech32 for witness v0, bech32m for v1..16, program
 * 2..40 bytes, 20 or 32 for v0, 8-to-5 padding checked, one case only. Returns null when invalid.
 */
export function decodeSegwit(address: string): SegwitAddress | null {
  if (address.length > 90 || (address !== address.toLowerCase() && address !== address.toUpperCase())) {
    return null;
  }
  const lower = address.toLowerCase();
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(lower, 90);
    if (!decoded || decoded.words.length < 1) continue;
    const [version = -1, ...data] = decoded.words;
    if (version > 16 || (version === 0) !== (codec === bech32)) return null;
    const program = codec.fromWordsUnsafe(data);
    if (!program || program.length < 2 || program.length > 40) return null;
    if (version === 0 && program.length !== 20 && program.length !== 32) return null;
    return { hrp: decoded.prefix, version, program };
  }
  return null;
}

/**
 * True when `s` is a valid bech32 (BIP-173) or bech32m (BIP-350) string of any human-readable part:
 * one case only, at most 90 characters, checksum of the given encoding.
 */
export function isValidBech32String(s: string, encoding: 'bech32' | 'bech32m'): boolean {
  if (s.length > 90 || (s !== s.toLowerCase() && s !== s.toUpperCase())) return false;
  const codec = encoding === 'bech32' ? bech32 : bech32m;
  return Boolean(codec.decodeUnsafe(s.toLowerCase(), 90));
}

/**
 * Bitcoin: deposit addresses are native segwit P2WPKH (bc1q/tb1q/bcrt1q, BIP-84); withdrawals may go to any
 * segwit address (bech32/bech32m) or a base58check P2PKH/P2SH address of the configured network.
 */
export const btc = defineAdapter({
  coin: 'BTC',
  addressFromPublicKey(publicKey, network) {
    const address = p2wpkh(publicKey, btcNetwork(network)).address;
    if (!address) throw new Error('p2wpkh gave no address');
    return address;
  },
  isValidAddress(address, network) {
    const params = BTC_PARAMS[network];
    const segwit = decodeSegwit(address);
    if (segwit) return segwit.hrp === params.hrp;
    if (address.length < 26 || address.length > 35) return false;
    const payload = decodeBase58check(address);
    return (
      payload !== null && payload.length === 21 && (payload[0] === params.p2pkh || payload[0] === params.p2sh)
    );
  },
  /** Segwit addresses in lower case (BIP-173 allows an all-upper spelling); base58 is case-sensitive. */
  normalizeAddress(address) {
    return decodeSegwit(address) ? address.toLowerCase() : address;
  },
});
