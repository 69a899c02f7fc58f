import { defineAdapter } from './define.ts';
import { evmAccountId } from './eth.ts';
import { base58check, decodeBase58check } from './hashes.ts';

/** TRON's address prefix byte (base58 'T...'). */
const TRON_PREFIX = 0x41;

/**
 * TRON: base58check of 0x41 followed by the 20-byte account id (the same keccak-256 id as Ethereum's),
 * 34 characters starting with 'T', the same on mainnet and testnet.
 */
export const trx = defineAdapter({
  coin: 'TRX',
  addressFromPublicKey: (publicKey) =>
    base58check.encode(Uint8Array.of(TRON_PREFIX, ...evmAccountId(publicKey))),
  isValidAddress(address) {
    if (address.length !== 34 || !address.startsWith('T')) return false;
    const payload = decodeBase58check(address);
    return payload !== null && payload.length === 21 && payload[0] === TRON_PREFIX;
  },
});
