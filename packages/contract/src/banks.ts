/**
 * The Korean banks and securities firms offered for pay-in accounts (SPEC §3: 44 banks plus 'other' with free
 * text), each with the number of digits its account numbers have (hyphens not counted), so "12" for
 * 카카오뱅크 is refused where it is typed and by the API. Ranges cover each bank's current and older formats
 * (e.g. KB국민은행 12 digits before 2008, 14 after); a bank outside the table takes OTHER_BANK_DIGITS.
 * Names are Korean proper nouns, shown as they are in every language.
 */
export const BANK_ACCOUNT_DIGITS = {
  KB국민은행: [12, 14],
  신한은행: [11, 12],
  우리은행: [13, 13],
  하나은행: [11, 14],
  NH농협은행: [11, 14],
  IBK기업은행: [10, 14],
  SC제일은행: [11, 11],
  한국씨티은행: [10, 13],
  KDB산업은행: [11, 14],
  Sh수협은행: [11, 12],
  'iM뱅크(대구은행)': [11, 14],
  부산은행: [12, 13],
  경남은행: [12, 13],
  광주은행: [12, 13],
  전북은행: [12, 13],
  제주은행: [10, 12],
  카카오뱅크: [13, 13],
  케이뱅크: [12, 12],
  토스뱅크: [12, 12],
  우체국: [14, 14],
  새마을금고: [13, 14],
  신협: [12, 13],
  산림조합: [12, 13],
  저축은행: [10, 14],
  지역농축협: [11, 14],
  HSBC은행: [10, 14],
  도이치은행: [10, 14],
  BOA은행: [10, 14],
  JP모간체이스은행: [10, 14],
  중국공상은행: [10, 14],
  중국은행: [10, 14],
  중국건설은행: [10, 14],
  BNP파리바은행: [10, 14],
  KB증권: [8, 12],
  미래에셋증권: [8, 12],
  삼성증권: [8, 12],
  NH투자증권: [8, 12],
  한국투자증권: [8, 12],
  키움증권: [8, 12],
  신한투자증권: [8, 12],
  대신증권: [8, 12],
  하나증권: [8, 12],
  메리츠증권: [8, 12],
  유안타증권: [8, 12],
} as const satisfies Record<string, readonly [number, number]>;

export type BankName = keyof typeof BANK_ACCOUNT_DIGITS;

/** The bank names in display order. */
export const BANKS = Object.keys(BANK_ACCOUNT_DIGITS) as BankName[];

/** A bank typed by hand ('기타'): the widest range of domestic account numbers. */
export const OTHER_BANK_DIGITS: readonly [number, number] = [8, 16];

/** The digit range [min, max] of `bankName`'s account numbers (trimmed name; OTHER_BANK_DIGITS when unknown). */
export function accountDigitsOf(bankName: string): readonly [number, number] {
  return (
    (BANK_ACCOUNT_DIGITS as Record<string, readonly [number, number]>)[bankName.trim()] ?? OTHER_BANK_DIGITS
  );
}

/** Account number characters: digits in groups joined by single hyphens ("110-123-456789"). */
export const ACCOUNT_NO_PATTERN = /^\d+(?:-\d+)*$/;

/** True when `accountNo` (digits and hyphens) has as many digits as `bankName`'s accounts have. */
export function accountNoFitsBank(bankName: string, accountNo: string): boolean {
  const v = accountNo.trim();
  if (!ACCOUNT_NO_PATTERN.test(v)) return false;
  const digits = v.replace(/-/g, '').length;
  const [min, max] = accountDigitsOf(bankName);
  return digits >= min && digits <= max;
}
