import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';

/** A regtest P2WPKH address of a random 20-byte program: nobody holds its key, a recipient nobody else pays. */
export function randomRecipient(): string {
  return bech32.encode('bcrt', [0, ...bech32.toWords(randomBytes(20))]);
}
