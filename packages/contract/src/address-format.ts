import { type Coin, coinSpec } from './coins.ts';

/*
 * A light shape check of a coin address for forms: the characters, prefix and length each chain
 * uses, without the checksum. The API's chain validators (apps/api/src/chains/<coin>.ts: bech32,
 * base58check, EIP-55) stay the authority; they need crypto libraries the web bundle should not carry, so a typo that
 * keeps the shape is still refused by the server (INVALID_ADDRESS), shown at the same field. The shapes are
 * the registry's (COIN_SPECS[coin].address.shapes).
 */

/** True when `address` (trimmed) has the shape of a `coin` address; the checksum is the server's to check. */
export function addressLooksValid(coin: Coin, address: string): boolean {
  const a = address.trim();
  return a.length > 0 && coinSpec(coin).address.shapes.some((re) => re.test(a));
}
