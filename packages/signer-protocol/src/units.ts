/**
 * Base units (satoshi, wei, drop, sun) as exact decimal strings of the coin's unit, and back. Never a float.
 */

/** `value` base units with `decimals` decimals as a decimal string without trailing zeros ("0.015", "12"). */
export function unitsToDecimal(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A decimal coin amount as base units; throws RangeError when it has more than `decimals` decimals. */
export function decimalToUnits(amount: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new RangeError(`not a decimal amount: ${amount}`);
  const fraction = m[2] ?? '';
  if (fraction.length > decimals) throw new RangeError(`more than ${decimals} decimals: ${amount}`);
  return BigInt(`${m[1]}${fraction.padEnd(decimals, '0')}`);
}
