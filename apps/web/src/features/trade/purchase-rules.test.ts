import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/trade.json';
import {
  addQuickAmount,
  addressError,
  amountError,
  countryKey,
  formatKrwInput,
  minimumKrw,
  type PurchaseFormState,
  parseKrwInput,
  purchaseBlocker,
  purchaseSchema,
  receiveQtyOf,
} from './purchase-rules';

const base: PurchaseFormState = {
  coin: 'BTC',
  krw: 100_000,
  minKrw: 50_000,
  destType: 'INTERNAL',
  hasWallet: true,
  address: '',
  reserve: false,
  reserveDate: '',
  reserveTime: '',
};

describe('purchase rules (SPEC §5 "Purchase")', () => {
  it('keeps digits only and shows thousands separators', () => {
    expect(parseKrwInput('1,234,5a67')).toBe(1_234_567);
    expect(parseKrwInput('')).toBe(0);
    expect(parseKrwInput('0007')).toBe(7);
    expect(parseKrwInput('-5.5')).toBe(55);
    expect(formatKrwInput(9_500_000)).toBe('9,500,000');
    expect(formatKrwInput(0)).toBe('');
  });

  it('quick-add buttons add to the current amount; reset is 0', () => {
    expect(addQuickAmount(0, 10_000)).toBe(10_000);
    expect(addQuickAmount(10_000, 1_000_000)).toBe(1_010_000);
  });

  it('the minimum is ceil(minQty x unitPriceKrw)', () => {
    expect(minimumKrw('0.001', 95_000_000)).toBe(95_000);
    expect(minimumKrw('0.00000001', 1)).toBe(1);
    expect(minimumKrw('0.3333', 10)).toBe(4);
  });

  it('over 9,500,000 won: 1회 최대 구매 금액은 950만원까지예요.', () => {
    expect(amountError(9_500_000, 1)).toBeUndefined();
    expect(amountError(9_500_001, 1)).toBe('ABOVE_MAX');
    expect(kr.purchase.errors.ABOVE_MAX).toBe('1회 최대 구매 금액은 950만원까지예요.');
  });

  it('under the minimum: 최소 구매 금액보다 적어요.', () => {
    expect(amountError(49_999, 50_000)).toBe('BELOW_MIN');
    expect(amountError(50_000, 50_000)).toBeUndefined();
    expect(amountError(0, 50_000)).toBeUndefined();
    // The SPEC §8 text, then the minimum restated.
    expect(kr.purchase.errors.BELOW_MIN).toBe('최소 구매 금액보다 적어요. 최소 구매 금액은 {{min}}원이에요.');
  });

  it('receive quantity = amount / price rounded down to 4 decimals, exact (no floats)', () => {
    expect(receiveQtyOf(100_000, 30_000)).toBe('3.3333');
    expect(receiveQtyOf(1, 3)).toBe('0.3333');
    expect(receiveQtyOf(9_500_000, 95_000_000)).toBe('0.1');
    expect(receiveQtyOf(0, 10)).toBe('0');
  });

  it('the button is disabled for amount 0, over max, under min, or no internal wallet', () => {
    expect(purchaseBlocker(base)).toBeUndefined();
    expect(purchaseBlocker({ ...base, krw: 0 })).toBe('AMOUNT_REQUIRED');
    expect(purchaseBlocker({ ...base, krw: 9_600_000 })).toBe('ABOVE_MAX');
    expect(purchaseBlocker({ ...base, krw: 10_000 })).toBe('BELOW_MIN');
    expect(purchaseBlocker({ ...base, hasWallet: false })).toBe('NO_WALLET');
    expect(kr.purchase.errors.NO_WALLET).toBe('해당 코인의 지갑이 없어요.');
  });

  it('a personal wallet needs an address of the coin; a reservation needs date and time', () => {
    expect(purchaseBlocker({ ...base, destType: 'EXTERNAL', hasWallet: false, address: '  ' })).toBe(
      'ADDRESS_REQUIRED',
    );
    expect(purchaseBlocker({ ...base, destType: 'EXTERNAL', hasWallet: false, address: 'bc1q' })).toBe(
      'ADDRESS_INVALID',
    );
    const segwit = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    expect(
      purchaseBlocker({ ...base, destType: 'EXTERNAL', hasWallet: false, address: segwit }),
    ).toBeUndefined();
    expect(addressError('ETH', segwit)).toBe('ADDRESS_INVALID');
    expect(addressError('ETH', '')).toBeUndefined();
    expect(purchaseBlocker({ ...base, reserve: true, reserveDate: '2026-01-01' })).toBe('RESERVE_REQUIRED');
    expect(purchaseBlocker({ ...base, reserve: true, reserveDate: '2026-01-01', reserveTime: '10:15' })).toBe(
      undefined,
    );
  });

  it('nationality: 82 Korea, 81 Japan, 1 US, else other', () => {
    expect(countryKey('82')).toBe('82');
    expect(countryKey('81')).toBe('81');
    expect(countryKey('1')).toBe('1');
    expect(countryKey('44')).toBe('other');
    expect(kr.purchase.country.other).toBe('기타');
  });
});

describe('purchase form schema', () => {
  const v = { krw: 0, destType: 'INTERNAL' as const, address: '', reserveDate: '', reserveTime: '' };
  const issues = (krw: number) => {
    const r = purchaseSchema(50_000).safeParse({ ...v, krw });
    return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };
  it('reports the amount rules on the amount; nothing typed is no error', () => {
    expect(issues(0)).toEqual([]);
    expect(issues(60_000)).toEqual([]);
    expect(issues(10_000)).toEqual([['krw', 'BELOW_MIN']]);
    expect(issues(9_500_001)).toEqual([['krw', 'ABOVE_MAX']]);
  });
});
