import { addressLooksValid } from '@p2p/contract/address-format.ts';
import type { Coin } from '@p2p/contract/enums.ts';
import { LIMITS } from '@p2p/contract/limits.ts';
import { formatKrw, minPurchaseKrw, receiveQty, smallerQty, wonValueOf } from '@p2p/contract/money.ts';
import { z } from 'zod';
import { schemaOf } from '../../lib/form-rules';

/**
 * The purchase form rules of SPEC §5 "Purchase", kept pure so they are testable. Won are integers; the
 * receive quantity comes from the contract's receiveQty (bigint arithmetic, rounded down to 4 decimals).
 */

/** Error codes of the purchase form; texts in trade:purchase.errors.<code>. */
export type PurchaseError =
  | 'ABOVE_MAX'
  | 'BELOW_MIN'
  | 'NO_WALLET'
  | 'ADDRESS_REQUIRED'
  | 'ADDRESS_INVALID'
  | 'RESERVE_REQUIRED';

/** Longest amount input in digits: one more than 9,500,000 needs, so an over-max value still shows its error. */
const MAX_AMOUNT_DIGITS = 10;

/** Direct input: keeps digits only (separators and anything else dropped) and returns integer won (0 if empty). */
export function parseKrwInput(raw: string): number {
  const digits = raw.replace(/\D/g, '').replace(/^0+/, '').slice(0, MAX_AMOUNT_DIGITS);
  return digits ? Number.parseInt(digits, 10) : 0;
}

/** Won with thousands separators for the amount input; empty for 0 so the placeholder shows. */
export function formatKrwInput(krw: number): string {
  return krw > 0 ? formatKrw(krw) : '';
}

/** Quick-add (1만 .. 100만): adds to the current amount, capped at what the input can hold. */
export function addQuickAmount(current: number, add: number): number {
  return Math.min(current + add, 10 ** MAX_AMOUNT_DIGITS - 1);
}

/** The minimum purchase of a listing in won: ceil(minQty x unitPriceKrw) (SPEC §5). */
export function minimumKrw(minQty: string, unitPriceKrw: number): number {
  return minPurchaseKrw(minQty, unitPriceKrw);
}

/** Amount check: over 9,500,000 won, or under the listing's minimum. 0 (nothing typed) is not an error. */
export function amountError(krw: number, minKrw: number): PurchaseError | undefined {
  if (krw <= 0) return undefined;
  if (krw > LIMITS.maxPurchaseKrw) return 'ABOVE_MAX';
  if (krw < minKrw) return 'BELOW_MIN';
  return undefined;
}

/** Receive quantity shown read-only: amount / unit price rounded down to 4 decimals ("0" for no amount). */
export function receiveQtyOf(krw: number, unitPriceKrw: number): string {
  if (krw <= 0 || unitPriceKrw <= 0) return '0';
  return receiveQty(krw, unitPriceKrw);
}

export interface PurchaseFormState {
  coin: Coin;
  krw: number;
  minKrw: number;
  destType: 'INTERNAL' | 'EXTERNAL';
  hasWallet: boolean;
  address: string;
  reserve: boolean;
  reserveDate: string;
  reserveTime: string;
}

/**
 * The first reason the purchase button is disabled, or undefined when it may be pressed (SPEC §5: in
 * error, amount 0, over max, under min, internal wallet with no wallet for the coin). A typed address is
 * needed for a personal wallet, with the shape of the coin's addresses (ADDRESS_INVALID, said at the field as
 * it is typed, before the SMS step), and a date and time for a reservation (the API requires both).
 */
export function purchaseBlocker(f: PurchaseFormState): PurchaseError | 'AMOUNT_REQUIRED' | undefined {
  if (f.krw <= 0) return 'AMOUNT_REQUIRED';
  const amount = amountError(f.krw, f.minKrw);
  if (amount) return amount;
  if (f.destType === 'INTERNAL' && !f.hasWallet) return 'NO_WALLET';
  if (f.destType === 'EXTERNAL' && !f.address.trim()) return 'ADDRESS_REQUIRED';
  if (f.destType === 'EXTERNAL' && addressError(f.coin, f.address)) return 'ADDRESS_INVALID';
  if (f.reserve && (!f.reserveDate || !f.reserveTime)) return 'RESERVE_REQUIRED';
  return undefined;
}

const purchaseObject = z.object({
  krw: z.number().int(),
  destType: z.enum(['INTERNAL', 'EXTERNAL']),
  address: z.string(),
  reserveDate: z.string(),
  reserveTime: z.string(),
});

/** The /purchase form as typed; the listing, the purchase type and the member's wallet come from elsewhere. */
export type PurchaseValues = z.infer<typeof purchaseObject>;

/**
 * The purchase form's schema: the amount rules at the amount field while typing (nothing typed is no error).
 * The rest of `purchaseBlocker` keeps the button disabled and says why under it.
 */
export const purchaseSchema = (minKrw: number) =>
  schemaOf(purchaseObject, (v): Partial<Record<string, string>> => ({ krw: amountError(v.krw, minKrw) }));

/** ADDRESS_INVALID for a typed address without the shape of `coin`'s addresses; nothing typed is no error. */
export function addressError(coin: Coin, address: string): 'ADDRESS_INVALID' | undefined {
  return address.trim() && !addressLooksValid(coin, address.trim()) ? 'ADDRESS_INVALID' : undefined;
}

/** Country name key of a calling code (SPEC §2: 82 Korea, 81 Japan, 1 US, else other). */
export function countryKey(code: string): '82' | '81' | '1' | 'other' {
  return code === '82' || code === '81' || code === '1' ? code : 'other';
}

/**
 * The won a buyer can spend on one order of a listing (SPEC §5): from ceil(minQty x price) to the smaller of
 * floor(upperQty x price) and the 9,500,000 won per-order cap; `capped` says the cap is what limits it.
 * `upperQty` is min(maxQty, remainingQty) (DECISIONS §4).
 */
export function purchaseRangeKrw(minQty: string, upperQty: string, unitPriceKrw: number) {
  const listingMax = wonValueOf(upperQty, unitPriceKrw);
  return {
    min: minPurchaseKrw(minQty, unitPriceKrw),
    max: Math.min(listingMax, LIMITS.maxPurchaseKrw),
    capped: listingMax > LIMITS.maxPurchaseKrw,
  };
}

/** purchaseRangeKrw of a listing as the trade list gives it (upper quantity min(maxQty, remainingQty)). */
export function purchaseRangeOf(l: {
  minQty: string;
  maxQty: string;
  remainingQty: string;
  unitPriceKrw: number;
}) {
  return purchaseRangeKrw(l.minQty, smallerQty(l.maxQty, l.remainingQty), l.unitPriceKrw);
}
