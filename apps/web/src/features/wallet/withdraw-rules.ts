import { addressLooksValid } from '@p2p/contract/address-format.ts';
import type { Coin } from '@p2p/contract/enums.ts';
import { LIMITS } from '@p2p/contract/limits.ts';
import { groupDecimal, toUnits } from '@p2p/contract/money.ts';
import { DEST_TAG_MAX } from '@p2p/contract/wallets.ts';
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
 * An XRP destination tag as typed (DECISIONS §17): empty = none (null), else its number when it is an integer
 * 0..2^32-1 written in digits, else undefined (an error).
 */
export function parseDestTag(typed: string): number | null | undefined {
  const v = typed.trim();
  if (v === '') return null;
  if (!/^\d{1,10}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= DEST_TAG_MAX ? n : undefined;
}

/** Keeps only the digits of what was typed into the tag field (10 at most: 2^32-1 has 10). */
export function formatDestTagInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 10);
}

/**
 * The send button is disabled when the amount is empty or in error, no address is given (or, with `coin`,
 * one without the shape of that coin's addresses), an XRP destination tag is out of range, or it is
 * sending.
 */
export function canWithdraw(
  formatted: string,
  balance: string,
  address: string,
  sending: boolean,
  coin?: Coin,
  destTag = '',
): boolean {
  return (
    !sending &&
    plainAmount(formatted) !== '' &&
    withdrawAmountError(formatted, balance) === undefined &&
    address.trim() !== '' &&
    (coin === undefined || addressLooksValid(coin, address)) &&
    (coin !== 'XRP' || parseDestTag(destTag) !== undefined)
  );
}

const withdrawObject = z.object({
  destType: z.enum(['INTERNAL', 'EXTERNAL']),
  address: z.string(),
  amount: z.string(),
  password: z.string(),
  /** XRP only: the destination tag as typed (digits; empty = none). */
  destTag: z.string().optional(),
  /** DECISIONS §19 Travel Rule (asked only when the amount needs it): the receiver and their address's kind. */
  beneficiaryName: z.string().optional(),
  beneficiaryKind: z.enum(['VASP', 'SELF_HOSTED']).optional(),
  vaspName: z.string().optional(),
});

/**
 * The /withdraw form: destination, address, the formatted amount, the XRP destination tag and the review
 * sheet's password.
 */
export type WithdrawValues = z.infer<typeof withdrawObject>;

/**
 * Field -> error code while typing: ADDRESS_INVALID for an address without the shape of the coin's addresses,
 * ADDRESS_SELF for the member's own deposit address, DEST_TAG_INVALID for an XRP tag that is not an integer 0..2^32-1, the amount rules above. Empty
 * fields are no error (the button stays disabled, `canWithdraw`); the password is checked when the member
 * confirms.
 */
export function validateWithdraw(
  v: WithdrawValues,
  coin: Coin | undefined,
  balance: string,
  own?: { address: string; destinationTag: number | null },
): Partial<Record<keyof WithdrawValues, string>> {
  const e: Partial<Record<keyof WithdrawValues, string>> = {};
  if (coin && v.address.trim() && !addressLooksValid(coin, v.address)) e.address = 'ADDRESS_INVALID';
  else if (own && isOwnAddress(v, own)) e.address = 'ADDRESS_SELF';
  if (coin === 'XRP' && parseDestTag(v.destTag ?? '') === undefined) e.destTag = 'DEST_TAG_INVALID';
  const amount = withdrawAmountError(v.amount, balance);
  if (amount) e.amount = amount;
  return e;
}

export const withdrawSchema = (
  coin: Coin | undefined,
  balance: string,
  own?: { address: string; destinationTag: number | null },
) => schemaOf(withdrawObject, (v) => validateWithdraw(v, coin, balance, own));

/**
 * ADDRESS_SELF: the member's own deposit address (the API refuses it too, SELF_TRANSFER). For XRP the
 * deposit address is the platform's shared account, so only that account with the member's own tag is theirs.
 */
export function isOwnAddress(
  v: Pick<WithdrawValues, 'address' | 'destTag'>,
  own: { address: string; destinationTag: number | null },
): boolean {
  if (v.address.trim().toLowerCase() !== own.address.toLowerCase()) return false;
  return own.destinationTag === null || parseDestTag(v.destTag ?? '') === own.destinationTag;
}

/** The Travel Rule's beneficiary as typed (DECISIONS §19), the exchange's name only for VASP. */
export interface BeneficiaryInput {
  name: string;
  kind: 'VASP' | 'SELF_HOSTED';
  vaspName: string | null;
}

/**
 * The beneficiary the form holds, or undefined while incomplete: a name, and for an address at another
 * exchange (VASP) that exchange's name. The API checks the characters (TRAVEL_RULE_INFO_REQUIRED, fields).
 */
export function beneficiaryOf(
  v: Pick<WithdrawValues, 'beneficiaryName' | 'beneficiaryKind' | 'vaspName'>,
): BeneficiaryInput | undefined {
  const name = (v.beneficiaryName ?? '').trim();
  const kind = v.beneficiaryKind ?? 'SELF_HOSTED';
  const vaspName = (v.vaspName ?? '').trim();
  if (!name || (kind === 'VASP' && !vaspName)) return undefined;
  return { name, kind, vaspName: kind === 'VASP' ? vaspName : null };
}
