import { accountDigitsOf, BANKS } from '@p2p/contract/banks.ts';
import i18n from '../i18n';

/**
 * The 44 Korean banks and securities firms offered for pay-in accounts (SPEC §3: 44 banks plus 'other'
 * with free text), from the contract's table with each bank's account-number length.
 */
export { accountDigitsOf, BANKS } from '@p2p/contract/banks.ts';

/** The 'other' choice: the member types the bank name (SPEC §5: 은행명을 직접 입력해주세요.). */
export const OTHER_BANK = '기타';

/** Splits a stored bank name into the select value and the free-text name (for editing forms). */
export function bankChoiceOf(bankName: string | null | undefined): { bank: string; customBank: string } {
  if (!bankName) return { bank: '', customBank: '' };
  return (BANKS as readonly string[]).includes(bankName)
    ? { bank: bankName, customBank: '' }
    : { bank: OTHER_BANK, customBank: bankName };
}

/** The bank name to send: the chosen bank, or the typed name when 'other' is chosen. */
export function bankNameOf(bank: string, customBank: string): string {
  return bank === OTHER_BANK ? customBank.trim() : bank;
}

/** "12-14자리 숫자 (하이픈 가능)": how many digits the bank's account numbers have (the contract's table). */
export function accountDigitsHint(bankName: string): string {
  const [min, max] = accountDigitsOf(bankName);
  return i18n.t(min === max ? 'common:fields.accountDigitsOne' : 'common:fields.accountDigits', { min, max });
}
