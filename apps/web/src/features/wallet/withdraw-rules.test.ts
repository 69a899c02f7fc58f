import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/wallet.json';
import {
  canWithdraw,
  formatDestTagInput,
  formatWithdrawInput,
  isOwnAddress,
  parseDestTag,
  plainAmount,
  validateWithdraw,
  type WithdrawValues,
  withdrawAmountError,
  withdrawSchema,
} from './withdraw-rules';

describe('withdraw amount rules (SPEC §5 "Withdraw")', () => {
  it('digits and one dot only, at most 6 decimals, thousands separators', () => {
    expect(formatWithdrawInput('1234567.1234567')).toBe('1,234,567.123456');
    expect(formatWithdrawInput('1.2.3')).toBe('1.23');
    expect(formatWithdrawInput('abc12')).toBe('12');
    expect(formatWithdrawInput('.5')).toBe('0.5');
    expect(formatWithdrawInput('00012')).toBe('12');
    expect(formatWithdrawInput('1,000.')).toBe('1,000.');
    expect(plainAmount('1,000.')).toBe('1000');
    expect(plainAmount('1,234.5')).toBe('1234.5');
  });

  it('above the balance: exceeds withdrawable quantity (출금 가능 수량을 초과했어요.)', () => {
    expect(withdrawAmountError('1.000001', '1')).toBe('EXCEEDS_BALANCE');
    expect(withdrawAmountError('1', '1')).toBeUndefined();
    expect(withdrawAmountError('0.5', '1.00000001')).toBeUndefined();
    expect(withdrawAmountError('1,001', '1000.99999999')).toBe('EXCEEDS_BALANCE');
    expect(kr.withdraw.errors.EXCEEDS_BALANCE).toBe('출금 가능 수량을 초과했어요.');
  });

  it('zero is an error, empty is not', () => {
    expect(withdrawAmountError('0.000', '1')).toBe('NOT_POSITIVE');
    expect(withdrawAmountError('', '1')).toBeUndefined();
  });

  it('the button is disabled when empty, in error, without address or while sending', () => {
    expect(canWithdraw('0.5', '1', 'addr', false)).toBe(true);
    expect(canWithdraw('', '1', 'addr', false)).toBe(false);
    expect(canWithdraw('2', '1', 'addr', false)).toBe(false);
    expect(canWithdraw('0.5', '1', ' ', false)).toBe(false);
    expect(canWithdraw('0.5', '1', 'addr', true)).toBe(false);
  });
});

describe('withdraw form schema', () => {
  const v: WithdrawValues = { destType: 'INTERNAL', address: '', amount: '', password: '' };
  it('empty fields are no error; the button is what waits for them', () => {
    expect(validateWithdraw(v, 'BTC', '1')).toEqual({});
    expect(withdrawSchema('BTC', '1').safeParse(v).success).toBe(true);
  });
  it('reports the address shape and the amount rules on their fields', () => {
    expect(validateWithdraw({ ...v, address: 'nope', amount: '2' }, 'BTC', '1')).toEqual({
      address: 'ADDRESS_INVALID',
      amount: 'EXCEEDS_BALANCE',
    });
    const r = withdrawSchema('BTC', '1').safeParse({ ...v, amount: '0' });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['amount', 'NOT_POSITIVE'],
    ]);
  });
});

describe('XRP destination tag (DECISIONS §17)', () => {
  const xrp = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
  const v: WithdrawValues = { destType: 'EXTERNAL', address: xrp, amount: '1', password: '' };
  it('reads an integer 0..2^32-1, empty as none, anything else as an error', () => {
    expect(parseDestTag('')).toBeNull();
    expect(parseDestTag('  ')).toBeNull();
    expect(parseDestTag('0')).toBe(0);
    expect(parseDestTag('4294967295')).toBe(4_294_967_295);
    expect(parseDestTag('4294967296')).toBeUndefined();
    expect(parseDestTag('12a')).toBeUndefined();
    expect(parseDestTag('1.5')).toBeUndefined();
    expect(formatDestTagInput('12 34-5x')).toBe('12345');
    expect(formatDestTagInput('123456789012')).toBe('1234567890');
  });
  it('holds the button and flags the field for a tag out of range, on XRP only', () => {
    expect(canWithdraw('1', '10', xrp, false, 'XRP', '4294967295')).toBe(true);
    expect(canWithdraw('1', '10', xrp, false, 'XRP', '')).toBe(true);
    expect(canWithdraw('1', '10', xrp, false, 'XRP', '9999999999')).toBe(false);
    expect(validateWithdraw({ ...v, destTag: '9999999999' }, 'XRP', '10')).toEqual({
      destTag: 'DEST_TAG_INVALID',
    });
    expect(validateWithdraw({ ...v, destTag: '123' }, 'XRP', '10')).toEqual({});
    expect(kr.withdraw.destTagInvalid).toContain('4294967295');
  });
});

describe("the member's own deposit address", () => {
  const btc = { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', destinationTag: null };
  const xrp = { address: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', destinationTag: 77 };
  it('is refused as typed (ADDRESS_SELF); XRP only with the member own tag', () => {
    expect(isOwnAddress({ address: ` ${btc.address} ` }, btc)).toBe(true);
    expect(isOwnAddress({ address: 'bc1qother' }, btc)).toBe(false);
    expect(isOwnAddress({ address: xrp.address, destTag: '77' }, xrp)).toBe(true);
    expect(isOwnAddress({ address: xrp.address, destTag: '78' }, xrp)).toBe(false);
    const v = { destType: 'EXTERNAL' as const, address: btc.address, amount: '', password: '' };
    expect(validateWithdraw(v, 'BTC', '1', btc).address).toBe('ADDRESS_SELF');
  });
});
