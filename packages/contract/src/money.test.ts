import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertKrw,
  formatKrw,
  formatQty,
  fromUnits,
  groupDecimal,
  isDecimal,
  minPurchaseKrw,
  QTY_SCALE,
  receiveQty,
  smallerQty,
  toSignedUnits,
  toUnits,
  wonValueOf,
} from './money.ts';

// DECISIONS §3: quantities are decimal strings outside, bigint base units (1e-8) inside, won are integers.
const SCALE = 10n ** BigInt(QTY_SCALE);
/** Every quantity the wire format can carry: up to 20 integer digits and 8 decimals. */
const MAX_UNITS = 10n ** 28n - 1n;
const units = fc.bigInt({ min: 0n, max: MAX_UNITS });
const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const won = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const price = fc.integer({ min: 1, max: 10_000_000_000 });

describe('quantities: parse and format (property)', () => {
  it('formats any amount of base units and parses it back to the same units, beyond 2^53', () => {
    fc.assert(
      fc.property(units, (u) => {
        const s = fromUnits(u);
        expect(s).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/); // canonical: no leading or trailing zeros
        expect(isDecimal(s)).toBe(true);
        expect(toUnits(s)).toBe(u);
      }),
    );
    expect(fromUnits(MAX_UNITS)).toBe('99999999999999999999.99999999');
  });

  it('parses every well-formed decimal exactly, trailing zeros and leading zeros included', () => {
    fc.assert(
      fc.property(digits(1, 20), fc.option(digits(1, 8), { nil: undefined }), (int, frac) => {
        const s = frac === undefined ? int : `${int}.${frac}`;
        const expected = BigInt(int) * SCALE + BigInt((frac ?? '').padEnd(QTY_SCALE, '0'));
        expect(toUnits(s)).toBe(expected);
        expect(toUnits(` ${s} `)).toBe(expected);
        expect(fromUnits(toUnits(s))).toBe(fromUnits(expected));
      }),
    );
  });

  it('keeps the sign of platform balances through a signed round trip', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_UNITS, max: MAX_UNITS }), (u) => {
        expect(toSignedUnits(fromUnits(u))).toBe(u);
        expect(fromUnits(u).startsWith('-')).toBe(u < 0n);
      }),
    );
  });

  it('either parses a string to exact units or throws RangeError: never a guess', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 32 }), (s) => {
        if (isDecimal(s.trim())) expect(toUnits(s) >= 0n).toBe(true);
        else expect(() => toUnits(s)).toThrow(RangeError);
      }),
    );
    for (const bad of [
      '',
      '.5',
      '1.',
      '-1',
      '+1',
      '1e3',
      '0x10',
      '1,000',
      '1.123456789',
      '1 000',
      'NaN',
      '１',
    ]) {
      expect(() => toUnits(bad), bad).toThrow(RangeError);
      expect(isDecimal(bad), bad).toBe(false);
    }
  });

  it('limits the decimals isDecimal accepts to maxDecimals', () => {
    fc.assert(
      fc.property(digits(1, 6), digits(1, 8), fc.integer({ min: 0, max: 8 }), (int, frac, max) => {
        expect(isDecimal(`${int}.${frac}`, max)).toBe(frac.length <= max);
      }),
    );
  });
});

describe('won and conversions (property)', () => {
  it('receiveQty is krw / price floored to 4 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), price, (krw, unitPrice) => {
        const q = toUnits(receiveQty(krw, unitPrice));
        expect(q % 10n ** BigInt(QTY_SCALE - 4)).toBe(0n); // at most 4 decimals
        const step = 10n ** BigInt(QTY_SCALE - 4);
        // q x price <= krw < (q + 0.0001) x price, in exact integer arithmetic (units x won vs won x 1e8)
        expect(q * BigInt(unitPrice) <= BigInt(krw) * SCALE).toBe(true);
        expect((q + step) * BigInt(unitPrice) > BigInt(krw) * SCALE).toBe(true);
      }),
    );
    expect(receiveQty(1_000_000, 50_000_000)).toBe('0.02');
    expect(receiveQty(1, 3)).toBe('0.3333');
  });

  it('minPurchaseKrw is minQty x price rounded up to whole won', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), price, (minUnits, unitPrice) => {
        const m = BigInt(minPurchaseKrw(fromUnits(minUnits), unitPrice));
        const exact = minUnits * BigInt(unitPrice);
        expect(m * SCALE >= exact).toBe(true);
        expect((m - 1n) * SCALE < exact).toBe(true);
      }),
    );
  });

  it('refuses fractional, negative or unsafe won anywhere: no float enters the arithmetic', () => {
    const notWon = fc.oneof(
      fc.double({ noNaN: false }).filter((x) => !Number.isSafeInteger(x) || x < 0),
      fc.integer({ max: -1 }),
    );
    fc.assert(
      fc.property(notWon, (x) => {
        expect(() => assertKrw(x)).toThrow(RangeError);
        expect(() => receiveQty(x, 1000)).toThrow(RangeError);
        expect(() => receiveQty(1000, x)).toThrow(RangeError);
        expect(() => minPurchaseKrw('1', x)).toThrow(RangeError);
      }),
    );
    expect(() => receiveQty(1000, 0)).toThrow(RangeError);
    fc.assert(
      fc.property(won, (krw) => {
        expect(assertKrw(krw)).toBe(krw);
      }),
    );
  });

  it('formats won with a comma every three digits and nothing else', () => {
    fc.assert(
      fc.property(won, (krw) => {
        const s = formatKrw(krw);
        expect(s.replaceAll(',', '')).toBe(String(krw));
        expect(s).toMatch(/^\d{1,3}(,\d{3})*$/);
      }),
    );
  });

  it('groups the integer part of a decimal without touching its precision', () => {
    fc.assert(
      fc.property(units, (u) => {
        const s = fromUnits(u);
        const g = groupDecimal(s);
        expect(g.replaceAll(',', '')).toBe(s);
        expect(g.split('.')[0]).toMatch(/^\d{1,3}(,\d{3})*$/);
        expect(toUnits(g.replaceAll(',', ''))).toBe(u);
      }),
    );
  });
});

describe('display and value helpers shared by the screens (SPEC §9, DECISIONS §3)', () => {
  it('formatQty truncates, never rounds up, drops trailing zeros and groups thousands', () => {
    expect(formatQty('1234.56789')).toBe('1,234.5678');
    expect(formatQty('0.99999999', 4)).toBe('0.9999');
    expect(formatQty('2.50000000', 8)).toBe('2.5');
    expect(formatQty('1000000', 0)).toBe('1,000,000');
    expect(() => formatQty('1e3')).toThrow(RangeError);
  });

  it('smallerQty compares exactly, not as floats', () => {
    expect(smallerQty('0.30000001', '0.3')).toBe('0.3');
    expect(smallerQty('10', '9.99999999')).toBe('9.99999999');
    expect(smallerQty('1.0', '1')).toBe('1.0');
  });

  it('wonValueOf rounds down to the whole won and refuses a fractional price', () => {
    expect(wonValueOf('0.12345678', 100_000_000)).toBe(12_345_678);
    expect(wonValueOf('0.00000001', 99)).toBe(0);
    expect(wonValueOf('1.5', 3)).toBe(4);
    expect(() => wonValueOf('1', 1.5)).toThrow(RangeError);
  });
});
