import { describe, expect, it } from 'vitest';
import { buyOrderCompleteBody, isDepositNote } from './market.ts';

/** DECISIONS §11: the seller's deposit note at release, 1-100 printable characters, no emoji. */
describe('deposit note (입금 확인 메모)', () => {
  it('takes a depositor name, a bank memo or a time, trimmed, up to 100 characters', () => {
    for (const note of [
      '김민수',
      'KIM MINSU 11/26 10:31',
      '입금 10:31 (국민)',
      '가'.repeat(100),
      ' 김민수 ',
    ]) {
      expect([note, isDepositNote(note)]).toEqual([note, true]);
    }
    expect(buyOrderCompleteBody.parse({ txid: ' 김민수 ' }).txid).toBe('김민수');
  });

  it('refuses blank, over-long, emoji, flags, control and zero-width characters', () => {
    const refused = [
      '',
      '   ',
      '가'.repeat(101),
      '😀😀😀',
      '김민수🔥',
      '❤️',
      '🇰🇷',
      'a\u0007b',
      'a\u200bb',
      'a\nb',
    ];
    for (const note of refused) expect([note, isDepositNote(note)]).toEqual([note, false]);
    const r = buyOrderCompleteBody.safeParse({ txid: '😀😀😀' });
    expect(r.success ? null : r.error.issues[0]?.message).toBe('INVALID_FORMAT');
  });
});
