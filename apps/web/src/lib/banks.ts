/**
 * The 44 Korean banks and securities firms offered for pay-in accounts (SPEC §3: 44 banks plus 'other'
 * with free text). Names are Korean proper nouns and are shown as is in every language.
 */
export const BANKS = [
  'KB국민은행',
  '신한은행',
  '우리은행',
  '하나은행',
  'NH농협은행',
  'IBK기업은행',
  'SC제일은행',
  '한국씨티은행',
  'KDB산업은행',
  'Sh수협은행',
  'iM뱅크(대구은행)',
  '부산은행',
  '경남은행',
  '광주은행',
  '전북은행',
  '제주은행',
  '카카오뱅크',
  '케이뱅크',
  '토스뱅크',
  '우체국',
  '새마을금고',
  '신협',
  '산림조합',
  '저축은행',
  '지역농축협',
  'HSBC은행',
  '도이치은행',
  'BOA은행',
  'JP모간체이스은행',
  '중국공상은행',
  '중국은행',
  '중국건설은행',
  'BNP파리바은행',
  'KB증권',
  '미래에셋증권',
  '삼성증권',
  'NH투자증권',
  '한국투자증권',
  '키움증권',
  '신한투자증권',
  '대신증권',
  '하나증권',
  '메리츠증권',
  '유안타증권',
] as const;

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
