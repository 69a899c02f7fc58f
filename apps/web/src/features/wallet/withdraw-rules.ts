import { addressLooksValid } from '@p2p/contract/address-format.ts';
import type { Coin } from '@p2p/contract/enums.ts';
import { LIMITS } from '@p2p/contract/limits.ts';
import { groupDecimal, toUnits } from '@p2p/contract/money.ts';
import { z } from 'zod';
import { schemaOf } from '../../lib/form-rules';

/**
 * The withdraw amount rules of SPEC §5 "Withdraw": digits and one dot, at most 6 decimals, shown with
 * thousands separators; more than the balance is an error. Compared as bigint base units, never floats.
 */
export type WithdrawError = 'EXCEEDS_BALANCE' | 'NOT_POSITIVE';

/** Formats what the member typed: digits and the first dot kept, 6 decimals at most, separators added. */
export function formatWithdrawInput(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  const int = (dot === -1 ? cleaned : cleaned.slice(0, dot)).replace(/^0+(?=\d)/, '').slice(0, 12);
  if (dot === -1) return groupDecimal(int);
  const frac = cleaned
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, LIMITS.withdrawDecimals);
  return `${groupDecimal(int || '0')}.${frac}`;
}

/** The plain decimal of a formatted amount ("1,234.5" -> "1234.5", "1." -> "1"); empty stays empty. */
export function plainAmount(formatted: string): string {
  return formatted.replace(/,/g, '').replace(/\.$/, '');
}

/** EXCEEDS_BALANCE above the available balance, NOT_POSITIVE for a zero amount; empty input is no error. */
export function withdrawAmountError(formatted: string, balance: string): WithdrawError | undefined {
  const plain = plainAmount(formatted);
  if (!plain) return undefined;
  const units = toUnits(plain);
  if (units <= 0n) return 'NOT_POSITIVE';
  if (units > toUnits(balance)) return 'EXCEEDS_BALANCE';
  return undefined;
}

/**
 * The send button is disabled when the amount is empty or in error, no address is given (or, with `coin`,
 * one without the shape of that coin's addresses, issue 13), or it is sending.
 */
export function canWithdraw(
  formatted: string,
  balance: string,
  address: string,
  sending: boolean,
  coin?: Coin,
): boolean {
  return (
    !sending &&
    plainAmount(formatted) !== '' &&
    withdrawAmountError(formatted, balance) === undefined &&
    address.trim() !== '' &&
    (coin === undefined || addressLooksValid(coin, address))
  );
}

const withdrawObject = z.object({
  destType: z.enum(['INTERNAL', 'EXTERNAL']),
  address: z.string(),
  amount: z.string(),
  password: z.string(),
});

/** The /withdraw form: destination, address, the formatted amount and the review sheet's password. */
export type WithdrawValues = z.infer<typeof withdrawObject>;

/**
 * Field -> error code while typing: ADDRESS_INVALID for an address without the shape of the coin's addresses
 * (issue 13), the amount rules above. Empty fields are no error (the button stays disabled, `canWithdraw`);
 * the password is checked when the member confirms.
 */
export function validateWithdraw(
  v: WithdrawValues,
  coin: Coin | undefined,
  balance: string,
): Partial<Record<keyof WithdrawValues, string>> {
  const e: Partial<Record<keyof WithdrawValues, string>> = {};
  if (coin && v.address.trim() && !addressLooksValid(coin, v.address)) e.address = 'ADDRESS_INVALID';
  const amount = withdrawAmountError(v.amount, balance);
  if (amount) e.amount = amount;
  return e;
}

export const withdrawSchema = (coin: Coin | undefined, balance: string) =>
  schemaOf(withdrawObject, (v) => validateWithdraw(v, coin, balance));
