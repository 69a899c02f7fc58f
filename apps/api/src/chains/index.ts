import type { Coin } from '@p2p/contract';
import { addressAt, type ChainKeys, internalAddressAt } from './keys.ts';

export type { ChainAdapter, ChainNetwork } from './adapter.ts';
export { decodeSegwit, isValidBech32String } from './btc.ts';
export { addressFromPublicKey, deriveAddress, parseAccountKey } from './derive.ts';
export { toChecksumAddress } from './eth.ts';
export { addressAt, type ChainKeys, internalAddressAt, resolveChainKeys } from './keys.ts';
export { CHAIN_ADAPTERS, chainAdapter, isValidAddress, normalizeAddress } from './registry.ts';

/**
 * The chain keys of this process, installed by app.ts (buildApp) when the app starts. Helpers such as
 * createWallet (also called by the demo seed) derive addresses through it without carrying the config.
 */
let current: ChainKeys | undefined;

/** Installs the keys the app resolved at start (the last app built in a process wins). */
export function installChainKeys(keys: ChainKeys): void {
  current = keys;
}

/** The installed keys; throws when no app has installed them yet. */
export function chainKeys(): ChainKeys {
  if (!current) throw new Error('chain keys not installed: build the app first');
  return current;
}

/** The platform's XRP receiving account under the installed keys (DECISIONS §17). */
export function xrpDepositAccount(): string {
  return chainKeys().xrpDepositAccount;
}

/** The deposit address of `coin` at derivation `index` under the installed keys. */
export function depositAddress(coin: Coin, index: number): string {
  return addressAt(chainKeys(), coin, index);
}

/** The hot address of `coin` (child 1/0, DECISIONS §18) under the installed keys. */
export function hotAddress(coin: Coin): string {
  return internalAddressAt(chainKeys(), coin, 0);
}
