import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/trade.json';
import { canSubmitProceed, normalizeTxid, proceedSchema, txidError } from './proceed-rules';

describe('proceed rules (DECISIONS §11 deposit note)', () => {
  it('the note is trimmed', () => {
    expect(normalizeTxid('  김민수 \n')).toBe('김민수');
  });

  it('blank, over-long, emoji and control characters are refused with the contract codes', () => {
    expect(txidError('')).toBe('TXID_REQUIRED');
    expect(txidError('   ')).toBe('TXID_REQUIRED');
    expect(txidError('가'.repeat(101))).toBe('TOO_LONG');
    expect(txidError('😀😀😀')).toBe('INVALID_FORMAT');
    expect(txidError('a\u0007')).toBe('INVALID_FORMAT');
    expect(txidError(' 김민수 10:31 ')).toBeUndefined();
    expect(kr.proceed.errors.TXID_REQUIRED).toBe('입금 확인 메모를 입력해 주세요.');
  });

  it('the button is disabled while the note is refused or submitting', () => {
    expect(canSubmitProceed('', false)).toBe(false);
    expect(canSubmitProceed('😀', false)).toBe(false);
    expect(canSubmitProceed('김민수', true)).toBe(false);
    expect(canSubmitProceed('김민수', false)).toBe(true);
  });

  it('success and failure texts of SPEC §8', () => {
    expect(kr.proceed.success).toBe('거래가 완료됐어요.');
    expect(kr.proceed.failed).toBe('거래 완료 처리 중 오류가 발생했어요.');
  });
});

describe('proceed form schema', () => {
  const v = { amountChecked: true, nameChecked: true, txid: '김민수', password: 'pw' };
  it('reports the note code on the note only', () => {
    expect(proceedSchema.safeParse(v).success).toBe(true);
    const r = proceedSchema.safeParse({ ...v, txid: '😀😀😀', password: '' });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['txid', 'INVALID_FORMAT'],
    ]);
  });
});
