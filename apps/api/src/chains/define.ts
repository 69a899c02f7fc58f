import { coinSpec } from '@p2p/contract';
import type { ChainAdapter, ChainRules } from './adapter.ts';

/** The largest non-hardened BIP-32 child index plus one. */
const HARDENED = 0x80000000;
const MAX_ADDRESS_LENGTH = 128;

/**
 * A full ChainAdapter from a chain's own rules: the account path comes from the contract's COIN_SPECS, the
 * derivation is BIP-32 child 0/index of the account key for every chain, and an address is kept as given
 * unless the chain says how to normalize it.
 */
export function defineAdapter(rules: ChainRules): ChainAdapter {
  const spec = coinSpec(rules.coin);
  return {
    coin: rules.coin,
    // Regtest keys follow testnet's coin type, as Bitcoin Core's regtest wallets do.
    accountPath: (network) => spec.accountPath[network === 'regtest' ? 'testnet' : network],
    addressFromPublicKey: rules.addressFromPublicKey,
    depositAddress(account, index, network) {
      if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED) {
        throw new RangeError(`derivation index out of range: ${index}`);
      }
      const child = account.deriveChild(0).deriveChild(index);
      if (!child.publicKey) throw new Error('derived key has no public key');
      return rules.addressFromPublicKey(child.publicKey, network);
    },
    // Nothing longer than any chain's address reaches a decoder.
    isValidAddress: (address, network) =>
      typeof address === 'string' &&
      address.length > 0 &&
      address.length <= MAX_ADDRESS_LENGTH &&
      rules.isValidAddress(address, network),
    normalizeAddress: rules.normalizeAddress ?? ((address) => address),
  };
}
