import type { Coin } from './enums.ts';

/**
 * A light shape check of a coin address for forms (issue 13): the characters, prefix and length each chain
 * uses, without the checksum. The API's chain validators (apps/api/src/chains/validate.ts: bech32, base58check,
 * EIP-55) stay the authority; they need crypto libraries the web bundle should not carry, so a typo that
 * keeps the shape is still refused by the server (INVALID_ADDRESS), shown at the same field.
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const SHAPES: Record<Coin, RegExp[]> = {
  BTC: [
    /^(bc1|tb1)[02-9ac-hj-np-z]{8,87}$/,
    /^(BC1|TB1)[02-9AC-HJ-NP-Z]{8,87}$/,
    new RegExp(`^[13mn2]${BASE58}{25,34}$`),
  ],
  ETH: [/^0x[0-9a-fA-F]{40}$/],
  TRX: [new RegExp(`^T${BASE58}{33}$`)],
  XRP: [new RegExp(`^r${BASE58}{24,34}$`)],
};

/** True when `address` (trimmed) has the shape of a `coin` address; the checksum is the server's to check. */
export function addressLooksValid(coin: Coin, address: string): boolean {
  const a = address.trim();
  return a.length > 0 && SHAPES[coin].some((re) => re.test(a));
}
