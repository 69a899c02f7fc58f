/**
 * The coin registry: everything the API and the web app need to know about a coin, declared
 * once. `Coin` and `COINS` derive from it, so the compiler finds every `Record<Coin, ...>` that must follow a new
 * entry, and `apps/api/src/chains/registry.test.ts` finds what the compiler cannot (icon, names, vectors).
 *
 * Adding a coin: an entry here, its chain adapter `apps/api/src/chains/<coin>.ts` with vectors under
 * `chains/vectors/`, its icon in `apps/web/src/components/ui/CoinIcon.tsx`, its display name in the three
 * `common.json` locale files, and a row of the `coins` table in a new migration (docs/architecture.md, "Adding a
 * coin"). No import of zod or of crypto code here: the web app imports this file on its first screen.
 */

/** Where a coin's won price comes from (DECISIONS §7): CoinGecko simple price id and Upbit KRW market. */
export interface CoinPriceIds {
  coingeckoId: string;
  upbitMarket: `KRW-${string}`;
}

/** One coin of the registry. */
export interface CoinSpec {
  /**
   * Decimals of the chain's own base unit (satoshi 8, wei 18, drop 6, sun 6). The ledger keeps every coin at
   * QTY_SCALE (8) fractional digits whatever this says (DECISIONS §3); this is the chain's figure, for the
   * day withdrawals are sent by the platform itself.
   */
  chainDecimals: number;
  /** i18n key (namespace `common`) of the display name; every locale (en, kr, jp) must carry it. */
  nameKey: `coins.${string}`;
  /** File name (without .svg) of the colour icon in the `cryptocurrency-icons` package. */
  icon: string;
  prices: CoinPriceIds;
  /** Elliptic curve of the chain's account keys; every chain of the registry signs with secp256k1 today. */
  curve: 'secp256k1';
  /**
   * BIP-32 account path of the watch-only key `XPUB_<COIN>` (DECISIONS §5: BIP-84 for BTC, BIP-44 for the
   * others); deposit addresses are its children 0/index. Testnet differs only where the chain's coin type does.
   */
  accountPath: { mainnet: string; testnet: string };
  address: {
    /** The checksum rule of the API's chain adapter (apps/api/src/chains/<coin>.ts), named for the reader. */
    checksum: string;
    /** Shapes (alphabet, prefix, length, no checksum) the forms check before the API does. */
    shapes: readonly RegExp[];
  };
  /**
   * A transaction id as the chain's explorers write it, and one explorer's page of a transaction
   * (`{txid}` replaced). Reference only: the operator console takes the TxID as typed (DECISIONS §5).
   */
  txid: { pattern: RegExp; explorerUrl: `https://${string}{txid}${string}` };
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';

/** The coins traded (SPEC §9), in display order: that order is COINS, the price list's and the tabs'. */
export const COIN_SPECS = {
  BTC: {
    chainDecimals: 8,
    nameKey: 'coins.BTC',
    icon: 'btc',
    prices: { coingeckoId: 'bitcoin', upbitMarket: 'KRW-BTC' },
    curve: 'secp256k1',
    accountPath: { mainnet: "m/84'/0'/0'", testnet: "m/84'/1'/0'" },
    address: {
      checksum: 'bech32 (v0) / bech32m (v1+) segwit, or base58check P2PKH/P2SH',
      shapes: [
        /^(bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}$/,
        /^(BC1|TB1|BCRT1)[02-9AC-HJ-NP-Z]{8,87}$/,
        new RegExp(`^[13mn2]${BASE58}{25,34}$`),
      ],
    },
    txid: { pattern: /^[0-9a-fA-F]{64}$/, explorerUrl: 'https://mempool.space/tx/{txid}' },
  },
  ETH: {
    chainDecimals: 18,
    nameKey: 'coins.ETH',
    icon: 'eth',
    prices: { coingeckoId: 'ethereum', upbitMarket: 'KRW-ETH' },
    curve: 'secp256k1',
    accountPath: { mainnet: "m/44'/60'/0'", testnet: "m/44'/60'/0'" },
    address: { checksum: 'EIP-55 mixed case', shapes: [/^0x[0-9a-fA-F]{40}$/] },
    txid: { pattern: /^0x[0-9a-fA-F]{64}$/, explorerUrl: 'https://etherscan.io/tx/{txid}' },
  },
  XRP: {
    chainDecimals: 6,
    nameKey: 'coins.XRP',
    icon: 'xrp',
    prices: { coingeckoId: 'ripple', upbitMarket: 'KRW-XRP' },
    curve: 'secp256k1',
    accountPath: { mainnet: "m/44'/144'/0'", testnet: "m/44'/144'/0'" },
    address: {
      checksum: 'XRP classic address (base58 XRP alphabet, double SHA-256)',
      shapes: [new RegExp(`^r${BASE58}{24,34}$`)],
    },
    txid: { pattern: /^[0-9a-fA-F]{64}$/, explorerUrl: 'https://livenet.xrpl.org/transactions/{txid}' },
  },
  TRX: {
    chainDecimals: 6,
    nameKey: 'coins.TRX',
    icon: 'trx',
    prices: { coingeckoId: 'tron', upbitMarket: 'KRW-TRX' },
    curve: 'secp256k1',
    accountPath: { mainnet: "m/44'/195'/0'", testnet: "m/44'/195'/0'" },
    address: { checksum: 'base58check of 0x41 + account id', shapes: [new RegExp(`^T${BASE58}{33}$`)] },
    txid: { pattern: /^[0-9a-fA-F]{64}$/, explorerUrl: 'https://tronscan.org/#/transaction/{txid}' },
  },
} as const satisfies Record<string, CoinSpec>;

/** A coin code of the registry ('BTC', 'ETH', 'XRP', 'TRX'). */
export type Coin = keyof typeof COIN_SPECS;

/**
 * The coin codes in registry order. The cast is the one place that turns the registry's keys (an object
 * of string keys, kept in insertion order) into the non-empty tuple zod's enum wants.
 */
export const COINS = Object.keys(COIN_SPECS) as [Coin, ...Coin[]];

/**
 * A record with one value per coin of the registry, in COINS order: how code fills a `Record<Coin, T>`
 * without naming the coins (configuration, price tables).
 */
export function byCoin<T>(value: (coin: Coin) => T): Record<Coin, T> {
  const entries: [Coin, T][] = COINS.map((coin) => [coin, value(coin)]);
  return Object.fromEntries(entries) as Record<Coin, T>;
}

/** The registry entry of `coin`, typed as the general CoinSpec (for code that must not depend on one coin). */
export function coinSpec(coin: Coin): CoinSpec {
  return COIN_SPECS[coin];
}

/** True when `s` is a coin code of the registry (exact case). */
export function isCoin(s: string): s is Coin {
  return Object.hasOwn(COIN_SPECS, s);
}
