/**
 * The one place a float enters the money path (DECISIONS §3, §7): price providers answer with JSON
 * numbers. Won leave here as integers and the 24 h change as a decimal string, so nothing downstream
 * ever holds a fractional won.
 */

/**
 * Converts a provider's KRW price (a JSON number, possibly fractional, e.g. 412.5) to whole won,
 * rounding half away from zero. Throws RangeError unless the result is a positive safe integer.
 */
export function wonFromProviderNumber(krw: number): number {
  const won = Math.round(krw);
  if (!Number.isSafeInteger(won) || won <= 0) throw new RangeError(`implausible KRW price: ${krw}`);
  return won;
}

/**
 * Formats a 24 h change given in percent (CoinGecko's `krw_24h_change`, e.g. -1.2345) as a decimal string
 * with two fractional digits ("-1.23"); "0.00" for a missing or non-finite value, never "-0.00".
 */
export function pctFromPercent(pct: number | null | undefined): string {
  if (typeof pct !== 'number' || !Number.isFinite(pct)) return '0.00';
  const s = pct.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}

/** Like pctFromPercent for a change given as a fraction (Upbit's `signed_change_rate`, -0.0123 = -1.23 %). */
export function pctFromRate(rate: number | null | undefined): string {
  if (typeof rate !== 'number' || !Number.isFinite(rate)) return '0.00';
  return pctFromPercent(rate * 100);
}
