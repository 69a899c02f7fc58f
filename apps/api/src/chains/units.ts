import { COIN_SPECS, type Coin, QTY_SCALE } from '@p2p/contract';

/**
 * The ledger quantity (base units of 10^-8 coin, DECISIONS §3) of `chainUnits` in the chain's own smallest unit
 * (satoshi, wei, drop, sun: `COIN_SPECS[coin].chainDecimals`), exact for chains of at most 8 decimals and
 * rounded down for the others: 1 ETH = 10^18 wei = 10^8 ledger units, so the wei below 10^10 (10^-8 ETH) of a
 * deposit are not credited (docs/engineering-log.md "Deposits from real chains": that dust stays on the platform's
 * addresses). Throws RangeError for a negative amount.
 */
export function chainUnitsToLedger(coin: Coin, chainUnits: bigint): bigint {
  if (chainUnits < 0n) throw new RangeError('negative chain amount');
  const decimals = COIN_SPECS[coin].chainDecimals;
  if (decimals >= QTY_SCALE) return chainUnits / 10n ** BigInt(decimals - QTY_SCALE);
  return chainUnits * 10n ** BigInt(QTY_SCALE - decimals);
}

/** The chain amount (smallest unit) of a ledger quantity `ledgerUnits` (10^-8 coin); exact. */
export function ledgerToChainUnits(coin: Coin, ledgerUnits: bigint): bigint {
  const decimals = COIN_SPECS[coin].chainDecimals;
  if (decimals >= QTY_SCALE) return ledgerUnits * 10n ** BigInt(decimals - QTY_SCALE);
  return ledgerUnits / 10n ** BigInt(QTY_SCALE - decimals);
}
