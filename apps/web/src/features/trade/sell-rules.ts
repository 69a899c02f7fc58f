import { LIMITS } from '@p2p/contract/limits.ts';
import { formatKrw, groupDecimal, toUnits, wonValueBig } from '@p2p/contract/money.ts';
import { z } from 'zod';
import { bankNameOf, OTHER_BANK } from '../../lib/banks';
import { accountNoError } from '../../lib/field-rules';
import { schemaOf } from '../../lib/form-rules';

/**
 * The sell form rules of SPEC §5 "Sell", pure and in SPEC order. Each returns a code whose Korean text is
 * trade:sell.errors.<code>. Quantities are compared as bigint base units, never floats.
 */
export type SellError =
  | 'WALLET_REQUIRED'
  | 'REQUIRED_FIELDS'
  | 'BANK_REQUIRED'
  | 'BANK_NAME_REQUIRED'
  | 'NOT_POSITIVE'
  | 'MIN_ABOVE_MAX'
  | 'LISTING_TOTAL_TOO_HIGH'
  | 'ACCOUNT_NO_DIGITS'
  | 'ACCOUNT_NO_LENGTH';

export interface SellFormValues {
  hasWallet: boolean;
  minQty: string;
  maxQty: string;
  unitPriceKrw: string;
  bank: string;
  customBank: string;
  accountNo: string;
}

function units(qty: string): bigint {
  try {
    return toUnits(qty);
  } catch {
    return 0n;
  }
}

/** The first broken rule of the sell form, or undefined when it may be submitted. */
export function sellFormError(v: SellFormValues): SellError | undefined {
  if (!v.hasWallet) return 'WALLET_REQUIRED';
  if (!v.minQty || !v.maxQty || !v.unitPriceKrw) return 'REQUIRED_FIELDS';
  if (!v.bank || !v.accountNo) return 'BANK_REQUIRED';
  if (v.bank === OTHER_BANK && !v.customBank.trim()) return 'BANK_NAME_REQUIRED';
  const account = accountNoError(bankNameOf(v.bank, v.customBank), v.accountNo);
  if (account === 'ACCOUNT_NO_DIGITS' || account === 'ACCOUNT_NO_LENGTH') return account;
  const min = units(v.minQty);
  const max = units(v.maxQty);
  if (min <= 0n || max <= 0n || parsePrice(v.unitPriceKrw) <= 0) return 'NOT_POSITIVE';
  if (min > max) return 'MIN_ABOVE_MAX';
  if (listingTotal(v.maxQty, v.unitPriceKrw).over) return 'LISTING_TOTAL_TOO_HIGH';
  return undefined;
}

/**
 * What the maximum quantity comes to at the typed unit price, exact (bigint won), grouped for display ("1,000"),
 * and whether it passes LIMITS.maxListingTotalKrw (100억 won; the API refuses the same). null total while a
 * part is missing. Never throws, whatever was typed.
 */
export function listingTotal(maxQty: string, unitPriceKrw: string): { krw: string | null; over: boolean } {
  const price = parsePrice(unitPriceKrw);
  const total = price > 0 ? wonValueBig(maxQty.replace(/\.$/, ''), price) : null;
  if (total === null) return { krw: null, over: false };
  return { krw: groupDecimal(total.toString()), over: total > BigInt(LIMITS.maxListingTotalKrw) };
}

/** The listing total limit as shown ("10,000,000,000"). */
export const LISTING_TOTAL_LIMIT = formatKrw(LIMITS.maxListingTotalKrw);

const sellObject = z.object({
  coin: z.string(),
  minQty: z.string(),
  maxQty: z.string(),
  unitPriceKrw: z.string(),
  bank: z.string(),
  customBank: z.string(),
  accountNo: z.string(),
});

/** The /sell form as typed; whether the member has a wallet of the coin comes from the wallet list. */
export type SellFields = z.infer<typeof sellObject>;

/** The field whose line shows each code: the wallet line (coin), the quantities, the bank, the bank name. */
export const SELL_ERROR_FIELD: Record<SellError, keyof SellFields> = {
  WALLET_REQUIRED: 'coin',
  REQUIRED_FIELDS: 'minQty',
  NOT_POSITIVE: 'minQty',
  MIN_ABOVE_MAX: 'minQty',
  LISTING_TOTAL_TOO_HIGH: 'unitPriceKrw',
  ACCOUNT_NO_DIGITS: 'accountNo',
  ACCOUNT_NO_LENGTH: 'accountNo',
  BANK_REQUIRED: 'bank',
  BANK_NAME_REQUIRED: 'customBank',
};

/** The sell form's schema: the first broken rule of `sellFormError`, on the field that shows it. */
export const sellSchema = (hasWallet: boolean) =>
  schemaOf(sellObject, (v): Partial<Record<string, string>> => {
    const code = sellFormError({ ...v, hasWallet });
    return code ? { [SELL_ERROR_FIELD[code]]: code } : {};
  });

/** Quantity input: digits and one dot, at most 4 decimals (SPEC §5); extra characters are dropped. */
export function sanitizeSellQty(raw: string): string {
  return sanitizeDecimal(raw, 4);
}

/** Price input: integer won only, shown with thousands separators. */
export function sanitizePrice(raw: string): string {
  const digits = raw
    .replace(/\D/g, '')
    .replace(/^0+(?=\d)/, '')
    .slice(0, 12);
  return digits ? formatKrw(Number.parseInt(digits, 10)) : '';
}

/** The won value of a price input ("12,000" -> 12000; empty -> 0); at most 12 digits, so always safe. */
export function parsePrice(s: string): number {
  const digits = s.replace(/\D/g, '').slice(0, 15);
  return digits ? Number.parseInt(digits, 10) : 0;
}

/** Account number input: digits and hyphens (a hyphen never doubled or first), at most 30 characters. */
export function sanitizeAccountNo(raw: string): string {
  return raw
    .replace(/[^\d-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-/, '')
    .slice(0, 30);
}

/** Keeps digits and the first dot, at most `decimals` fractional digits, no leading zeros ("007" -> "7"). */
export function sanitizeDecimal(raw: string, decimals: number): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  let int = dot === -1 ? cleaned : cleaned.slice(0, dot);
  const frac =
    dot === -1
      ? null
      : cleaned
          .slice(dot + 1)
          .replace(/\./g, '')
          .slice(0, decimals);
  int = int.replace(/^0+(?=\d)/, '').slice(0, 12);
  if (frac === null) return int;
  return `${int || '0'}.${frac}`;
}
