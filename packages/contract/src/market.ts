import { z } from 'zod';
import { DISPUTE_STATEMENT_MAX, DISPUTE_STATEMENT_MIN } from './dispute-rules.ts';
import { COINS, type Coin, DEST_TYPES, LISTING_SORTS, LISTING_STATUSES, ORDER_STATUSES } from './enums.ts';
import { FIELD_CODES as F } from './errors.ts';
import {
  accountNoField,
  accountNoOfBank,
  bankNameField,
  cursorField,
  idParam,
  krwField,
  qtyField,
} from './fields.ts';
import { StepUp } from './identity.ts';
import { LIMITS } from './limits.ts';
import { toUnits, wonValueBig } from './money.ts';

/**
 * Request and response shapes of the marketplace (SPEC §3, §5, §7; DECISIONS §4, §10). Quantities are
 * decimal strings, won are integers, times are ISO 8601 strings.
 */

function minNotAboveMax(minQty: string, maxQty: string): boolean {
  try {
    return toUnits(minQty) <= toUnits(maxQty);
  } catch {
    return true; // the field checks report the malformed quantity
  }
}

/**
 * True when the listing's maximum quantity at its unit price comes to at most LIMITS.maxListingTotalKrw won
 * (exact, in bigint: 100,000,000 TRX at 100,000,000 won each must be a field error, not an overflow).
 */
export function listingTotalWithinLimit(maxQty: string, unitPriceKrw: number): boolean {
  const total = wonValueBig(maxQty, unitPriceKrw);
  return total === null || total <= BigInt(LIMITS.maxListingTotalKrw);
}

/**
 * POST /api/v1/sell-listings (SPEC §5 "Sell"): quantities up to 4 decimals, > 0, min <= max. `stepUp` is
 * required (DECISIONS §13 as amended: a stolen token must not put up a listing paying another account; 422
 * STEP_UP_REQUIRED without it), optional here so the API says so rather than the validator.
 */
export const sellListingCreateBody = z
  .object({
    walletId: idParam,
    minQty: qtyField(LIMITS.sellQtyDecimals),
    maxQty: qtyField(LIMITS.sellQtyDecimals),
    unitPriceKrw: krwField,
    bankName: bankNameField,
    accountNo: accountNoField,
    stepUp: StepUp.optional(),
  })
  .refine((b) => minNotAboveMax(b.minQty, b.maxQty), { message: F.MIN_ABOVE_MAX, path: ['minQty'] })
  .refine((b) => listingTotalWithinLimit(b.maxQty, b.unitPriceKrw), {
    message: F.LISTING_TOTAL_TOO_HIGH,
    path: ['maxQty'],
  })
  .superRefine(accountNoOfBank);
export type SellListingCreateBody = z.infer<typeof sellListingCreateBody>;

/**
 * PATCH /api/v1/sell-listings/{id}: the seller's new unit price and quantities of an active listing, each as
 * the value it should now have (so a retry sets the same values again and moves nothing twice). The step-up
 * is required as for creating one (DECISIONS §13). maxQty may not fall below what orders already hold.
 */
export const sellListingEditBody = z
  .object({
    minQty: qtyField(LIMITS.sellQtyDecimals),
    maxQty: qtyField(LIMITS.sellQtyDecimals),
    unitPriceKrw: krwField,
    stepUp: StepUp.optional(),
  })
  .refine((b) => minNotAboveMax(b.minQty, b.maxQty), { message: F.MIN_ABOVE_MAX, path: ['minQty'] });
export type SellListingEditBody = z.infer<typeof sellListingEditBody>;

/** How far (percent) a live listing's new price may sit from the market before it goes back to review. */
export const REPRICE_REVIEW_PCT = 10;

/**
 * True when a new unit price needs an operator's review again: more than REPRICE_REVIEW_PCT percent away
 * from the market price in won (integers, compared exactly), or no market price known. Shared by the API
 * (which decides) and the web app (which says so before the seller confirms).
 */
export function repriceNeedsReview(unitPriceKrw: number, marketKrw: number | null): boolean {
  if (marketKrw === null || marketKrw <= 0) return true;
  return Math.abs(unitPriceKrw - marketKrw) * 100 > marketKrw * REPRICE_REVIEW_PCT;
}

/** A listing as its seller sees it: create response and GET /my/sell/{id} (SPEC §3 "Sell-listing detail"). */
export const sellListingDetail = z.object({
  listingId: z.number().int(),
  status: z.enum(LISTING_STATUSES),
  createdAt: z.string(),
  coinCode: z.enum(COINS),
  unitPriceKrw: z.number().int(),
  minQty: z.string(),
  maxQty: z.string(),
  remainingQty: z.string(),
  address: z.string(),
  sellerLoginId: z.string(),
  sellerCountry: z.string(),
  sellerPhone: z.string(),
  accountHolder: z.string(),
  bankName: z.string(),
  accountNo: z.string(),
  rejectReason: z.string().nullable(),
});
export type SellListingDetail = z.infer<typeof sellListingDetail>;

/**
 * A seller's track record (DECISIONS §11), read from a maintained summary (never a scan per card).
 * completedTrades: all COMPLETED orders as seller. completionRatePct: COMPLETED / ended orders of the last
 * 30 days that the seller could have completed (COMPLETED, REJECTED, DISPUTED-then-CANCELED), integer 0-100,
 * null below 5 such orders. medianReleaseSec: median of (completedAt - paidAt, or createdAt when never PAID)
 * over the last 30 days' completions, null below 5. memberSince: the seller's signup time (ISO).
 */
export const sellerStats = z.object({
  completedTrades: z.number().int(),
  completionRatePct: z.number().int().nullable(),
  medianReleaseSec: z.number().int().nullable(),
  memberSince: z.string(),
});
export type SellerStats = z.infer<typeof sellerStats>;

/**
 * A card of the public trade list and the home carousel; sellerName is masked (DECISIONS §10). The nickname
 * is the seller's one public name (DECISIONS §11): sellerLoginId stays for SPEC §3 clients and carries it too.
 */
export const tradeListing = z.object({
  listingId: z.number().int(),
  coinCode: z.enum(COINS),
  minQty: z.string(),
  maxQty: z.string(),
  remainingQty: z.string(),
  unitPriceKrw: z.number().int(),
  status: z.enum(LISTING_STATUSES),
  createdAt: z.string(),
  sellerNickname: z.string(),
  sellerLoginId: z.string(),
  sellerName: z.string(),
  sellerCountry: z.string(),
  sellerStats,
});
export type TradeListing = z.infer<typeof tradeListing>;

/** A row of GET /my/sell. */
export const mySellListing = tradeListing.omit({
  sellerNickname: true,
  sellerLoginId: true,
  sellerName: true,
  sellerCountry: true,
  sellerStats: true,
});
export type MySellListing = z.infer<typeof mySellListing>;

const pageSize = z.coerce
  .number(F.INVALID_FORMAT)
  .int(F.INVALID_FORMAT)
  .min(1, F.INVALID_FORMAT)
  .max(LIMITS.listPageSizeMax, F.TOO_LONG)
  .default(LIMITS.listPageSize);

/**
 * The coin filter as SPEC §2 names the tabs (all, btc, eth, trx, xrp) in any case; `all` means no filter.
 * A string with a pattern (not a preprocess) so the API document still describes the accepted input.
 */
const coinTabField = z
  .string()
  .regex(new RegExp(`^(ALL|${COINS.join('|')})$`, 'i'), F.INVALID_FORMAT)
  .transform((v): Coin | undefined => {
    const up = v.toUpperCase();
    return up === 'ALL' ? undefined : (up as Coin);
  });

/** GET /api/v1/sell-listings query (SPEC §7): size default 20 (max 50), opaque cursor, coin tab, sort. */
export const tradeListQuery = z.object({
  size: pageSize,
  cursor: cursorField.optional(),
  coin: coinTabField.optional(),
  sort: z.enum(LISTING_SORTS, F.INVALID_FORMAT).default('CREATED_DESC'),
});
export type TradeListQuery = z.infer<typeof tradeListQuery>;

/** Query of the member's own cursor lists (/my/sell, /my/buy-history, /my/sell-history). */
export const myListQuery = z.object({ size: pageSize, cursor: cursorField.optional() });
export type MyListQuery = z.infer<typeof myListQuery>;

const dateRe = /^\d{4}-\d{2}-\d{2}$/;
const timeRe = /^\d{2}:\d{2}$/;

/** POST /buy-orders (SPEC §3, §5 "Purchase"; DECISIONS §4). The server recomputes requestQty. */
export const buyOrderCreateBody = z.object({
  listingId: idParam,
  krwAmount: krwField,
  requestQty: qtyField(),
  destType: z.enum(DEST_TYPES, F.INVALID_FORMAT),
  destWalletId: idParam.optional().nullable(),
  destAddress: z.string().trim().max(128, F.TOO_LONG).optional().nullable(),
  reserveDate: z.string().regex(dateRe, F.DATE_INVALID).optional().nullable(),
  reserveTime: z.string().regex(timeRe, F.INVALID_FORMAT).optional().nullable(),
});
export type BuyOrderCreateBody = z.infer<typeof buyOrderCreateBody>;

/** POST /buy-orders/{id}/complete: the TxID, trimmed, required, at most 128 characters (SPEC §5 "Proceed"). */
export const orderTxidField = z
  .string(F.TXID_REQUIRED)
  .trim()
  .min(1, F.TXID_REQUIRED)
  .max(LIMITS.txidMax, F.TXID_REQUIRED);
// Not a printable note: control, format, private-use and unassigned characters, line and paragraph separators,
// and emoji (pictographs, regional-indicator flags, the emoji variation selector and skin-tone modifiers).
const NOT_NOTE_TEXT =
  /[\p{C}\p{Zl}\p{Zp}\p{Extended_Pictographic}\p{Emoji_Modifier}\u{1F1E6}-\u{1F1FF}\uFE0F]/u;

/** True when `note` is 1-100 printable characters without emoji (DECISIONS §11 deposit note), once trimmed. */
export function isDepositNote(note: string): boolean {
  const v = note.trim();
  return v.length >= 1 && v.length <= LIMITS.depositNoteMax && !NOT_NOTE_TEXT.test(v);
}

/**
 * The seller's release of POST /buy-orders/{id}/complete (API field `txid`, DECISIONS §11): the deposit note
 * (입금 확인 메모), the bank's transfer memo or time the seller saw. Trimmed; TXID_REQUIRED when blank, TOO_LONG
 * past 100 characters, INVALID_FORMAT for emoji or control characters.
 */
export const depositNoteField = z
  .string(F.TXID_REQUIRED)
  .trim()
  .min(1, F.TXID_REQUIRED)
  .max(LIMITS.depositNoteMax, F.TOO_LONG)
  .refine((v) => !NOT_NOTE_TEXT.test(v), F.INVALID_FORMAT);

/** `stepUp` is required (DECISIONS §13: 422 STEP_UP_REQUIRED without it), optional here so the API says so. */
export const buyOrderCompleteBody = z.object({ txid: depositNoteField, stepUp: StepUp.optional() });

/** Why a party opens a dispute (DECISIONS §11); COINS_NOT_RELEASED is also the timer's reason. */
export const DISPUTE_REASONS = [
  'PAYMENT_NOT_RECEIVED',
  'COINS_NOT_RELEASED',
  'WRONG_AMOUNT',
  'THIRD_PARTY_PAYMENT',
  'OTHER',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** POST /buy-orders/{id}/dispute (DECISIONS §11): a reason and a statement of 10-2000 characters. */
export const buyOrderDisputeBody = z.object({
  reason: z.enum(DISPUTE_REASONS, F.INVALID_FORMAT),
  statement: z
    .string(F.REQUIRED)
    .trim()
    .min(DISPUTE_STATEMENT_MIN, F.REQUIRED)
    .max(DISPUTE_STATEMENT_MAX, F.TOO_LONG),
});
export type BuyOrderDisputeBody = z.infer<typeof buyOrderDisputeBody>;

/**
 * The protocol's clock on every order view (DECISIONS §11), ISO or null when not applicable:
 * paymentDeadline (REQUESTED expires then), paidAt, releaseDeadline (PAID escalates then), disputedAt,
 * expiredAt, and disputeOpensAt (when the buyer may open a dispute; the seller may at once while PAID).
 */
export const orderClock = z.object({
  paymentDeadline: z.string().nullable(),
  paidAt: z.string().nullable(),
  releaseDeadline: z.string().nullable(),
  disputedAt: z.string().nullable(),
  expiredAt: z.string().nullable(),
  disputeOpensAt: z.string().nullable(),
});
export type OrderClock = z.infer<typeof orderClock>;

/**
 * A dispute's record (DECISIONS §11): who opened it (BUYER, SELLER, or SYSTEM for the release timer), the
 * opener's reason and each side's statement (the other party adds theirs with the same call while DISPUTED).
 */
/**
 * How an operator ended a dispute, for both parties (DECISIONS §11): COMPLETED released the coins to the
 * buyer, CANCELED returned them to the listing or the seller; the operator's reason as given; when, and the
 * seconds from the dispute's opening to that decision.
 */
export const disputeResolution = z.object({
  outcome: z.enum(['COMPLETED', 'CANCELED']),
  reason: z.string().nullable(),
  resolvedAt: z.string(),
  tookSec: z.number().int().nonnegative(),
});
export type DisputeResolution = z.infer<typeof disputeResolution>;

export const orderDispute = z.object({
  reason: z.enum(DISPUTE_REASONS),
  openedBy: z.enum(['BUYER', 'SELLER', 'SYSTEM']),
  buyerStatement: z.string().nullable(),
  sellerStatement: z.string().nullable(),
  systemStatement: z.string().nullable(),
  /** null while the dispute is open (or when the order ended otherwise) */
  resolution: disputeResolution.nullable(),
});
export type OrderDispute = z.infer<typeof orderDispute>;

/** A buy order as its buyer receives it on creation (SPEC §3 "Buy order", with the seller's bank details). */
export const buyOrderCreated = z.object({
  orderId: z.number().int(),
  coinCode: z.enum(COINS),
  requestQty: z.string(),
  requestKrwAmount: z.number().int(),
  unitPriceKrw: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.string(),
  destType: z.enum(DEST_TYPES),
  destAddress: z.string(),
  address: z.string(),
  sellerLoginId: z.string(),
  sellerAccountHolder: z.string(),
  sellerPhone: z.string(),
  sellerBankName: z.string(),
  sellerAccountNo: z.string(),
  sellerNickName: z.string(),
  sellerCountryCode: z.string(),
  reserveDate: z.string().nullable(),
  reserveTime: z.string().nullable(),
  ...orderClock.shape,
  dispute: orderDispute.nullable(),
  sellerStats,
});
export type BuyOrderCreated = z.infer<typeof buyOrderCreated>;

/** A row of /my/buy-history and /my/sell-history (buyerNickname filled in the sell history). */
export const orderHistoryItem = z.object({
  orderId: z.number().int(),
  coinCode: z.enum(COINS),
  requestQty: z.string(),
  requestKrwAmount: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  sellerNickName: z.string(),
  sellerCountryCode: z.string(),
  buyerNickname: z.string().optional(),
  ...orderClock.shape,
});
export type OrderHistoryItem = z.infer<typeof orderHistoryItem>;

/**
 * GET /my/buy-history/{id}: the buyer's receipt. The seller's full name only while the order is live.
 * feeQty: the trade fee kept from the delivery (DECISIONS §3), "0" until COMPLETED.
 */
export const buyOrderDetail = buyOrderCreated.extend({
  completedAt: z.string().nullable(),
  sellerAddress: z.string(),
  txid: z.string().nullable(),
  feeQty: z.string(),
});
export type BuyOrderDetail = z.infer<typeof buyOrderDetail>;

/** GET /my/sell-history/{id}: the seller's receipt with the buyer's details (SPEC §3 "Sell-history entry"). */
export const sellOrderDetail = buyOrderDetail.extend({
  buyerLoginId: z.string(),
  buyerNickname: z.string(),
  buyerCountryCode: z.string(),
  buyerPhone: z.string(),
  buyerName: z.string(),
  buyerBankName: z.string().nullable(),
  buyerAccountNo: z.string().nullable(),
  /** DECISIONS §19: the name the won must come from: the buyer's verified name (pay from one's own account). */
  expectedDepositorName: z.string(),
});
export type SellOrderDetail = z.infer<typeof sellOrderDetail>;

/** An operator's reason for an action (DECISIONS §8): trimmed, required, bounded. */
export const orderReasonField = z.string(F.REQUIRED).trim().min(1, F.REQUIRED).max(500, F.TOO_LONG);
export const opsReasonBody = z.object({ reason: orderReasonField });
export const opsCompleteOrderBody = z.object({ reason: orderReasonField, txid: orderTxidField });

export const opsListingsQuery = z.object({
  status: z.enum(LISTING_STATUSES, F.INVALID_FORMAT).optional(),
  size: pageSize,
  cursor: cursorField.optional(),
});
export const opsOrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES, F.INVALID_FORMAT).optional(),
  memberId: idParam.optional(),
  size: pageSize,
  cursor: cursorField.optional(),
});

/**
 * The seller's bank account as their profile holds it now (GET /my's bankName and accountNo, null when never
 * saved; the holder is the member's name, as on every listing of theirs).
 */
export const opsProfileAccount = z.object({
  bankName: z.string().nullable(),
  accountNo: z.string().nullable(),
  accountHolder: z.string(),
});

/**
 * A listing in the operator console (every status, the seller's identity in full). `profileAccount` sits
 * beside the listing's pay-in account so the review can compare them (DECISIONS §13 as amended: a stolen
 * session must not redirect buyers' won); `accountDiffersFromProfile` is true when the listing pays into
 * another bank or account number than the profile's, or the profile has none.
 */
export const opsListing = sellListingDetail.extend({
  sellerId: z.number().int(),
  profileAccount: opsProfileAccount,
  accountDiffersFromProfile: z.boolean(),
});
/**
 * A party of an order as the operator sees it, to settle a dispute (DECISIONS §11): the real name, the
 * phone and the bank account (the seller's pay-in account of the listing; the buyer's own account, null
 * when they never saved one).
 */
export const opsOrderParty = z.object({
  nickname: z.string(),
  name: z.string(),
  phone: z.string(),
  bankName: z.string().nullable(),
  accountNo: z.string().nullable(),
});
export type OpsOrderParty = z.infer<typeof opsOrderParty>;

/** GET /my/order-counts: orders waiting for the member (the seller's badge, DECISIONS §11). */
export const myOrderCounts = z.object({
  /** orders on the member's listings in REQUESTED or PAID: a deposit to check and a release to decide */
  sellerWaiting: z.number().int(),
  /** the member's own orders in REQUESTED: a deposit still to send */
  buyerWaiting: z.number().int(),
});
export type MyOrderCounts = z.infer<typeof myOrderCounts>;

/** A buy order in the operator console. */
export const opsOrder = z.object({
  orderId: z.number().int(),
  listingId: z.number().int(),
  buyerId: z.number().int(),
  sellerId: z.number().int(),
  buyerLoginId: z.string(),
  sellerLoginId: z.string(),
  coinCode: z.enum(COINS),
  requestQty: z.string(),
  /** the trade fee kept from the delivery, "0" until COMPLETED */
  feeQty: z.string(),
  requestKrwAmount: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  destType: z.enum(DEST_TYPES),
  destAddress: z.string(),
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  ...orderClock.shape,
  dispute: orderDispute.nullable(),
  /** seconds since the dispute opened (the queue's waiting time), null unless DISPUTED */
  waitingSec: z.number().int().nullable(),
  buyer: opsOrderParty,
  seller: opsOrderParty,
});
