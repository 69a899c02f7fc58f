/**
 * Exact money arithmetic (DECISIONS §3). Coin quantities are decimal strings on the wire and bigint
 * base units (1e-8 of a coin, "units") in code; won are integers. Never a JavaScript float.
 */
export const QTY_SCALE = 8;
const SCALE = 10n ** BigInt(QTY_SCALE);

const DECIMAL_RE = /^(\d{1,20})(?:\.(\d{1,8}))?$/;

/** True when `s` is a plain non-negative decimal with at most `maxDecimals` fractional digits. */
export function isDecimal(s: string, maxDecimals = QTY_SCALE): boolean {
  const m = DECIMAL_RE.exec(s);
  return m !== null && (m[2] ?? '').length <= maxDecimals;
}

/** Parses a decimal string ("0.12345678") into base units (12345678n). Throws RangeError on bad input. */
export function toUnits(s: string): bigint {
  const m = DECIMAL_RE.exec(s.trim());
  if (!m) throw new RangeError(`not a decimal quantity: ${s}`);
  const frac = (m[2] ?? '').padEnd(QTY_SCALE, '0');
  return BigInt(m[1]!) * SCALE + BigInt(frac);
}

/** Like toUnits but accepts a leading minus (platform ledger accounts run negative). */
export function toSignedUnits(s: string): bigint {
  const t = s.trim();
  return t.startsWith('-') ? -toUnits(t.slice(1)) : toUnits(t);
}

/** Formats base units as a decimal string without trailing zeros ("0.5", "12"). Negative allowed. */
export function fromUnits(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const int = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(QTY_SCALE, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** Throws unless `krw` is a safe non-negative integer (won are never fractional). */
export function assertKrw(krw: number): number {
  if (!Number.isSafeInteger(krw) || krw < 0)
    throw new RangeError(`won must be a non-negative integer: ${krw}`);
  return krw;
}

/**
 * Receive quantity of a purchase (DECISIONS §3): krwAmount / unitPriceKrw rounded DOWN to 4 decimals,
 * as a decimal string.
 */
export function receiveQty(krwAmount: number, unitPriceKrw: number): string {
  assertKrw(krwAmount);
  assertKrw(unitPriceKrw);
  if (unitPriceKrw === 0) throw new RangeError('unit price must be positive');
  const units4 = (BigInt(krwAmount) * 10_000n) / BigInt(unitPriceKrw);
  return fromUnits(units4 * 10n ** BigInt(QTY_SCALE - 4));
}

/** Minimum purchase in won (SPEC §5): ceil(minQty x unitPriceKrw). */
export function minPurchaseKrw(minQty: string, unitPriceKrw: number): number {
  const product = toUnits(minQty) * BigInt(assertKrw(unitPriceKrw));
  return Number((product + SCALE - 1n) / SCALE);
}

/**
 * Formats won with thousands separators: 1234567 -> "1,234,567". String grouping, not toLocaleString: each
 * toLocaleString('en-US') call builds an ICU number formatter, which on a phone-class CPU made the landing
 * page's price and listing cards the biggest script cost after first paint (bench/README.md).
 */
export function formatKrw(krw: number): string {
  return groupDecimal(String(assertKrw(Math.trunc(krw))));
}

/** Adds thousands separators to a decimal string ("12345.5" -> "12,345.5") without touching precision. */
export function groupDecimal(s: string): string {
  const [i = '', f] = s.split('.');
  const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return f === undefined ? grouped : `${grouped}.${f}`;
}

/**
 * A quantity for display (SPEC §9): truncated, never rounded up, to `decimals` fractional digits (0-8),
 * trailing zeros dropped, thousands separated: ("1234.56789", 4) -> "1,234.5678". Throws RangeError on a
 * quantity toUnits refuses.
 */
export function formatQty(qty: string, decimals = 4): string {
  const step = 10n ** BigInt(QTY_SCALE - decimals);
  return groupDecimal(fromUnits((toUnits(qty) / step) * step));
}

/** The smaller of two decimal quantity strings, compared exactly (the first when equal). */
export function smallerQty(a: string, b: string): string {
  return toUnits(a) <= toUnits(b) ? a : b;
}

/**
 * The won value of `qty` coins at `krwPerCoin` won a coin, rounded down to the whole won (bigint arithmetic,
 * never a float; DECISIONS §3). Throws RangeError on a bad quantity or price.
 */
export function wonValueOf(qty: string, krwPerCoin: number): number {
  return Number((toUnits(qty) * BigInt(assertKrw(krwPerCoin))) / SCALE);
}

/**
 * The exact won value of `qty` at `krwPerCoin` as a bigint (rounded down), for totals that may pass
 * Number.MAX_SAFE_INTEGER (a listing's maximum quantity times its unit price): null when `qty` is not a
 * decimal quantity or the price not a non-negative integer.
 */
export function wonValueBig(qty: string, krwPerCoin: number): bigint | null {
  if (!isDecimal(qty.trim()) || !Number.isSafeInteger(krwPerCoin) || krwPerCoin < 0) return null;
  return (toUnits(qty) * BigInt(krwPerCoin)) / SCALE;
}

/** Shortens an address for display: first 6 and last 5 characters when longer than 11 (SPEC §9). */
export function shortenAddress(address: string): string {
  return address.length > 11 ? `${address.slice(0, 6)}...${address.slice(-5)}` : address;
}
