import type { Coin } from '@p2p/contract';
import type { HDKey } from '@scure/bip32';

/**
 * Which of a chain's networks the addresses are for (CHAIN_NETWORK, DECISIONS §5, §17). `regtest` is a
 * local test chain: BTC addresses `bcrt1...` (base58 as on testnet), every other coin as on testnet.
 */
export type ChainNetwork = 'mainnet' | 'testnet' | 'regtest';

/**
 * What the platform needs from one chain (DESIGN.md "chains/", DECISIONS §5): deposit addresses derived from
 * the watch-only account key, and the chain's address rules for withdrawals. One adapter per coin in
 * `chains/<coin>.ts`, all in the registry `CHAIN_ADAPTERS` (registry.ts); no code outside chains/ switches on
 * a coin. Adapters do not read a chain: where a node is configured, the reader of `chains/<coin>-reader.ts`
 * does (DECISIONS §17), otherwise the operator credits deposits (§5); TxIDs are taken as typed (their format
 * is in the contract's COIN_SPECS for reference) and fees are configuration (WITHDRAW_FEE_<COIN>), not chain
 * rules.
 */
export interface ChainAdapter {
  readonly coin: Coin;
  /** BIP-32 path of the account key XPUB_<COIN> on `network` (the registry's `accountPath`). */
  accountPath(network: ChainNetwork): string;
  /** The address of one compressed secp256k1 public key (33 bytes) on `network`. */
  addressFromPublicKey(publicKey: Uint8Array, network: ChainNetwork): string;
  /**
   * The deposit address at child `0/index` of the account key (external chain, non-hardened), as a wallet
   * holding the matching private key derives it. Throws RangeError for an index outside 0..2^31-1.
   */
  depositAddress(account: HDKey, index: number, network: ChainNetwork): string;
  /** True when `address` is a valid address on `network`, its checksum included (DECISIONS §5). */
  isValidAddress(address: string, network: ChainNetwork): boolean;
  /** The canonical spelling of a valid address, so that two spellings of one address compare equal. */
  normalizeAddress(address: string): string;
}

/** The chain-specific part of an adapter; `defineAdapter` adds the BIP-32 derivation and the path. */
export type ChainRules = Pick<ChainAdapter, 'coin' | 'addressFromPublicKey' | 'isValidAddress'> &
  Partial<Pick<ChainAdapter, 'normalizeAddress'>>;
