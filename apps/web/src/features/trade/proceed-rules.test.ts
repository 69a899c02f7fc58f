import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/trade.json';
import { canSubmitProceed, normalizeTxid, proceedSchema, txidError } from './proceed-rules';

describe('proceed rules (SPEC §5 "Proceed")', () => {
  it('the TxID is trimmed', () => {
    expect(normalizeTxid('  0xabc \n')).toBe('0xabc');
  });

  it('an empty or blank TxID: 트랜젝션 ID를 입력해주세요.', () => {
    expect(txidError('')).toBe('TXID_REQUIRED');
    expect(txidError('   ')).toBe('TXID_REQUIRED');
    expect(txidError(' 0xabc ')).toBeUndefined();
    expect(kr.proceed.errors.TXID_REQUIRED).toBe('트랜젝션 ID를 입력해주세요.');
  });

  it('the button is disabled while empty or submitting', () => {
    expect(canSubmitProceed('', false)).toBe(false);
    expect(canSubmitProceed(' ', false)).toBe(false);
    expect(canSubmitProceed('0xabc', true)).toBe(false);
    expect(canSubmitProceed('0xabc', false)).toBe(true);
  });

  it('success and failure texts of SPEC §8', () => {
    expect(kr.proceed.success).toBe('거래가 완료되었습니다.');
    expect(kr.proceed.failed).toBe('거래 완료 처리 중 오류가 발생했습니다.');
  });
});

describe('proceed form schema', () => {
  const v = { amountChecked: true, nameChecked: true, txid: '0xabc', password: 'pw' };
  it('reports TXID_REQUIRED on the TxID only', () => {
    expect(proceedSchema.safeParse(v).success).toBe(true);
    const r = proceedSchema.safeParse({ ...v, txid: '  ', password: '' });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['txid', 'TXID_REQUIRED'],
    ]);
  });
});
