import type { Coin } from '@p2p/contract';
import { bech32, bech32m } from '@scure/base';
import { isValidClassicAddress } from 'ripple-address-codec';
import { base58check, type ChainNetwork, toChecksumAddress } from './derive.ts';

/** BIP-173 human-readable parts and base58 version bytes (P2PKH, P2SH) per network. */
const BTC_PARAMS: Record<ChainNetwork, { hrp: string; p2pkh: number; p2sh: number }> = {
  mainnet: { hrp: 'bc', p2pkh: 0x00, p2sh: 0x05 },
  testnet: { hrp: 'tb', p2pkh: 0x6f, p2sh: 0xc4 },
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

function isValidBtc(address: string, network: ChainNetwork): boolean {
  const params = BTC_PARAMS[network];
  const segwit = decodeSegwit(address);
  if (segwit) return segwit.hrp === params.hrp;
  if (address.length < 26 || address.length > 35) return false;
  const payload = decodeBase58check(address);
  return (
    payload !== null && payload.length === 21 && (payload[0] === params.p2pkh || payload[0] === params.p2sh)
  );
}

/** EIP-55: 0x + 40 hex digits; all-lower and all-upper carry no checksum, mixed case must match it. */
function isValidEth(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(body) === address;
}

/** TRON: 34 base58 characters, base58check of 0x41 followed by the 20-byte account id. */
function isValidTrx(address: string): boolean {
  if (address.length !== 34 || !address.startsWith('T')) return false;
  const payload = decodeBase58check(address);
  return payload !== null && payload.length === 21 && payload[0] === 0x41;
}

function decodeBase58check(s: string): Uint8Array | null {
  try {
    return base58check.decode(s);
  } catch {
    return null;
  }
}

/**
 * True when `address` is a valid address of `coin` on `network`, its checksum included (DECISIONS §5):
 * BTC bech32/bech32m segwit or base58check P2PKH/P2SH, ETH EIP-55, TRX base58check 'T...', XRP classic
 * 'r...'. ETH, TRX and XRP addresses are the same on mainnet and testnet.
 */
export function isValidAddress(coin: Coin, address: string, network: ChainNetwork): boolean {
  if (typeof address !== 'string' || address.length === 0 || address.length > 128) return false;
  switch (coin) {
    case 'BTC':
      return isValidBtc(address, network);
    case 'ETH':
      return isValidEth(address);
    case 'TRX':
      return isValidTrx(address);
    case 'XRP':
      return isValidClassicAddress(address);
  }
}

/**
 * The canonical form of a valid address, so that two spellings of one address compare equal: ETH in its
 * EIP-55 form, segwit BTC in lower case; the others are case-sensitive and stay as given.
 */
export function normalizeAddress(coin: Coin, address: string): string {
  if (coin === 'ETH') return toChecksumAddress(address.slice(2));
  if (coin === 'BTC' && decodeSegwit(address)) return address.toLowerCase();
  return address;
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
