import { formatKrw, fromUnits, groupDecimal, toUnits } from '@p2p/contract/money.ts';

/**
 * Display helpers (SPEC §9): KRW with 0 decimals and separators; quantities truncated (never rounded up) to
 * `decimals` fractional digits with trailing zeros dropped. Amounts stay strings/bigint, never floats.
 */
export function formatQty(qty: string, decimals = 4): string {
  const units = toUnits(qty);
  const step = 10n ** BigInt(8 - decimals);
  const truncated = fromUnits((units / step) * step);
  return groupDecimal(truncated);
}

export function formatWon(krw: number): string {
  return formatKrw(krw);
}

/** The smaller of two decimal quantity strings. */
export function minQtyOf(a: string, b: string): string {
  return toUnits(a) <= toUnits(b) ? a : b;
}
