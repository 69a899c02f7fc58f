import { describe, expect, it } from 'vitest';
import { formatBalance, formatManwon } from './format';

describe('formatManwon (amounts over 10,000 won read in 만원)', () => {
  it('reads won in 만 units in Korean and Japanese, compact in English', () => {
    expect(formatManwon(2_010_000, 'kr')).toBe('201만원');
    expect(formatManwon(12_345_678, 'kr')).toBe('1,234만 5,678원');
    expect(formatManwon(10_000, 'kr')).toBe('1만원');
    expect(formatManwon(9_500_000, 'jp')).toBe('950万ウォン');
    expect(formatManwon(2_015_000, 'jp')).toBe('201万5,000ウォン');
    expect(formatManwon(2_010_000, 'en')).toBe('2.01M KRW');
    expect(formatManwon(50_000, 'en')).toBe('50K KRW');
  });
});

describe('formatBalance (SPEC §9: wallet balances 4-8 decimals)', () => {
  it('pads to 4 decimals and keeps up to 8, truncating', () => {
    expect(formatBalance('1')).toBe('1.0000');
    expect(formatBalance('0.5')).toBe('0.5000');
    expect(formatBalance('1234.12345678')).toBe('1,234.12345678');
    expect(formatBalance('0.00000001')).toBe('0.00000001');
    expect(formatBalance('12.3456789')).toBe('12.3456789');
    expect(formatBalance('0')).toBe('0.0000');
  });
});
