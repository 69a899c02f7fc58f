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

/**
 * An amount of won read the Korean way, in 만 (10,000) units (issue 13): 2,010,000 -> 201만원,
 * 12,345,678 -> 1,234만 5,678원; Japanese uses 万 the same way, English a compact form (2.01M KRW).
 * Integers only: the parts are whole-won divisions, never a float of money.
 */
export function formatManwon(krw: number, lang: string): string {
  const man = Math.floor(krw / 10_000);
  const rest = krw % 10_000;
  if (lang === 'kr') return rest ? `${formatKrw(man)}만 ${formatKrw(rest)}원` : `${formatKrw(man)}만원`;
  if (lang === 'jp')
    return rest ? `${formatKrw(man)}万${formatKrw(rest)}ウォン` : `${formatKrw(man)}万ウォン`;
  return `${new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }).format(krw)} KRW`;
}
