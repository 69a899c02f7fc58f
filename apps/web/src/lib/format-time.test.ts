import { describe, expect, it } from 'vitest';
import { formatWhen } from './format-time';

describe('formatWhen: one date format everywhere (Intl, the interface language)', () => {
  const at = '2026-11-26T01:30:00.000Z'; // 10:30 on Thursday 26 November in Seoul
  it('reads 11월 26일 (목) 10:30 in Korean, and the same moment in English and Japanese', () => {
    expect(formatWhen(at, { lang: 'kr', timeZone: 'Asia/Seoul' })).toBe('11월 26일 (목) 10:30');
    expect(formatWhen(at, { lang: 'en', timeZone: 'Asia/Seoul' })).toBe('Thu, Nov 26, 10:30');
    expect(formatWhen(at, { lang: 'jp', timeZone: 'Asia/Seoul' })).toBe('11月26日(木) 10:30');
  });
  it('says - for no time or a broken one', () => {
    expect(formatWhen(null)).toBe('-');
    expect(formatWhen('not a time')).toBe('-');
  });
});
