import { encodeAccountID, isValidClassicAddress } from 'ripple-address-codec';
import { defineAdapter } from './define.ts';
import { hash160 } from './hashes.ts';

/**
 * XRP Ledger: classic 'r...' addresses (ripple-address-codec), the same on mainnet and testnet. The
 * AccountID of a secp256k1 public key is RIPEMD-160(SHA-256(key)), Bitcoin's hash160. X-addresses are
 * not accepted: a withdrawal names its destination tag elsewhere.
 */
export const xrp = defineAdapter({
  coin: 'XRP',
  addressFromPublicKey: (publicKey) => encodeAccountID(hash160(publicKey)),
  isValidAddress: (address) => isValidClassicAddress(address),
});
