import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/trade.json';
import {
  parsePrice,
  type SellFormValues,
  sanitizeAccountNo,
  sanitizePrice,
  sanitizeSellQty,
  sellFormError,
  sellSchema,
} from './sell-rules';

const ok: SellFormValues = {
  hasWallet: true,
  minQty: '0.01',
  maxQty: '0.5',
  unitPriceKrw: '95,000,000',
  bank: '신한은행',
  customBank: '',
  accountNo: '110123456789',
};

describe('sell rules (SPEC §5 "Sell"), each with its Korean message', () => {
  it('passes a complete form', () => {
    expect(sellFormError(ok)).toBeUndefined();
    expect(sellFormError({ ...ok, minQty: '0.5', maxQty: '0.5' })).toBeUndefined();
  });

  it('wallet must exist: 지갑을 먼저 생성해주세요.', () => {
    expect(sellFormError({ ...ok, hasWallet: false })).toBe('WALLET_REQUIRED');
    expect(kr.sell.errors.WALLET_REQUIRED).toBe('지갑을 먼저 생성해주세요.');
  });

  it('min, max and price required: 모든 필수 항목을 입력해주세요.', () => {
    for (const k of ['minQty', 'maxQty', 'unitPriceKrw'] as const) {
      expect(sellFormError({ ...ok, [k]: '' })).toBe('REQUIRED_FIELDS');
    }
    expect(kr.sell.errors.REQUIRED_FIELDS).toBe('모든 필수 항목을 입력해주세요.');
  });

  it('bank and account number required: 은행 정보를 입력해주세요.', () => {
    expect(sellFormError({ ...ok, bank: '' })).toBe('BANK_REQUIRED');
    expect(sellFormError({ ...ok, accountNo: '' })).toBe('BANK_REQUIRED');
    expect(kr.sell.errors.BANK_REQUIRED).toBe('은행 정보를 입력해주세요.');
  });

  it('기타 needs its name: 은행명을 직접 입력해주세요.', () => {
    expect(sellFormError({ ...ok, bank: '기타', customBank: ' ' })).toBe('BANK_NAME_REQUIRED');
    expect(sellFormError({ ...ok, bank: '기타', customBank: '토스' })).toBeUndefined();
    expect(kr.sell.errors.BANK_NAME_REQUIRED).toBe('은행명을 직접 입력해주세요.');
  });

  it('values > 0: 수량과 가격은 0보다 큰 값이어야 해요.', () => {
    expect(sellFormError({ ...ok, minQty: '0' })).toBe('NOT_POSITIVE');
    expect(sellFormError({ ...ok, maxQty: '0.0000' })).toBe('NOT_POSITIVE');
    expect(sellFormError({ ...ok, unitPriceKrw: '0' })).toBe('NOT_POSITIVE');
    expect(kr.sell.errors.NOT_POSITIVE).toBe('수량과 가격은 0보다 큰 값이어야 해요.');
  });

  it('min not above max: 최소 수량이 최대 수량보다 클 수 없어요.', () => {
    expect(sellFormError({ ...ok, minQty: '0.5001', maxQty: '0.5' })).toBe('MIN_ABOVE_MAX');
    expect(kr.sell.errors.MIN_ABOVE_MAX).toBe('최소 수량이 최대 수량보다 클 수 없어요.');
  });

  it('checks the rules in SPEC order', () => {
    expect(sellFormError({ ...ok, hasWallet: false, minQty: '' })).toBe('WALLET_REQUIRED');
    expect(sellFormError({ ...ok, minQty: '', bank: '' })).toBe('REQUIRED_FIELDS');
    expect(sellFormError({ ...ok, bank: '', minQty: '0' })).toBe('BANK_REQUIRED');
  });

  it('quantities up to 4 decimals, price integer only, account number digits only', () => {
    expect(sanitizeSellQty('0.123456')).toBe('0.1234');
    expect(sanitizeSellQty('1.2.3')).toBe('1.23');
    expect(sanitizeSellQty('.5')).toBe('0.5');
    expect(sanitizeSellQty('abc')).toBe('');
    expect(sanitizePrice('95000000.5')).toBe('950,000,005');
    expect(sanitizePrice('12,000원')).toBe('12,000');
    expect(parsePrice('12,000')).toBe(12_000);
    expect(sanitizeAccountNo('110-123-456 789')).toBe('110-123-456789');
    expect(sanitizeAccountNo('-110--123a')).toBe('110-123');
  });
});

describe('sell form schema', () => {
  const fields = {
    coin: 'BTC',
    minQty: '0.1',
    maxQty: '1',
    unitPriceKrw: '1,000',
    bank: '신한은행',
    customBank: '',
    accountNo: '110-123-456789',
  };
  const issues = (hasWallet: boolean, patch: Partial<typeof fields> = {}) => {
    const r = sellSchema(hasWallet).safeParse({ ...fields, ...patch });
    return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };
  it('passes a complete form with a wallet', () => expect(issues(true)).toEqual([]));
  it('reports only the first broken rule, on the field that shows it', () => {
    expect(issues(false, { minQty: '' })).toEqual([['coin', 'WALLET_REQUIRED']]);
    expect(issues(true, { minQty: '2' })).toEqual([['minQty', 'MIN_ABOVE_MAX']]);
    expect(issues(true, { bank: '' })).toEqual([['bank', 'BANK_REQUIRED']]);
    expect(issues(true, { bank: '카카오뱅크', accountNo: '12' })).toEqual([
      ['accountNo', 'ACCOUNT_NO_LENGTH'],
    ]);
    expect(issues(true, { maxQty: '100000000', unitPriceKrw: '100,000,000' })).toEqual([
      ['unitPriceKrw', 'LISTING_TOTAL_TOO_HIGH'],
    ]);
  });
});
