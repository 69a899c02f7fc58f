/** Coins traded (SPEC §9): declared once in the coin registry (coins.ts). */
export { byCoin, COIN_SPECS, COINS, type Coin, type CoinSpec, coinSpec, isCoin } from './coins.ts';

/** Country calling codes used for trade matching (SPEC §3, §9). Anything else is shown as 'other'. */
export const COUNTRY_CODES = ['82', '1', '81'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

export const ROLES = ['MEMBER', 'OPERATOR'] as const;
export type Role = (typeof ROLES)[number];

export const MEMBER_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const WALLET_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];

/** Sell listing states (SPEC §4, DECISIONS §4). */
export const LISTING_STATUSES = ['PENDING_REVIEW', 'OPEN', 'PAUSED', 'CLOSED', 'REJECTED'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
/** States in which a listing counts as the seller's one active listing of a coin (DECISIONS §4). */
export const ACTIVE_LISTING_STATUSES = [
  'PENDING_REVIEW',
  'OPEN',
  'PAUSED',
] as const satisfies ListingStatus[];

/** Buy order states (SPEC §4, DECISIONS §4, §11). */
export const ORDER_STATUSES = [
  'REQUESTED',
  'PAID',
  'DISPUTED',
  'COMPLETED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** States in which an order holds its quantity and counts against the buyer's live-order limit (DECISIONS §11). */
export const LIVE_ORDER_STATUSES = ['REQUESTED', 'PAID', 'DISPUTED'] as const satisfies OrderStatus[];

export const DEST_TYPES = ['INTERNAL', 'EXTERNAL'] as const;
export type DestType = (typeof DEST_TYPES)[number];

export const TRANSFER_TYPES = ['WITHDRAW', 'DEPOSIT'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/**
 * Transfer states (DECISIONS §5, §17, §18). An external withdrawal is PENDING until approved (APPROVED: by an
 * operator, or by itself up to WITHDRAW_AUTO_MAX_<COIN>), BROADCAST once its signed transaction is stored and
 * sent, COMPLETED at the coin's confirmations (or when an operator marks it sent on a coin without a node),
 * FAILED when the node refused it or it left the chain (an operator retries or rejects), REJECTED when refused
 * (refund). A
 * deposit seen on chain is PENDING while it confirms, COMPLETED once credited, BELOW_MINIMUM when under
 * DEPOSIT_MIN_<COIN> (recorded, never credited) and DROPPED when its transaction left the chain in a reorg and
 * did not come back in time (never credited).
 */
export const TRANSFER_STATUSES = [
  'PENDING',
  'APPROVED',
  'BROADCAST',
  'COMPLETED',
  'FAILED',
  'REJECTED',
  'DROPPED',
  'BELOW_MINIMUM',
] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
/** The states an external withdrawal can be in (the operator's withdrawal queue filters by these). */
export const WITHDRAWAL_STATUSES = [
  'PENDING',
  'APPROVED',
  'BROADCAST',
  'COMPLETED',
  'FAILED',
  'REJECTED',
] as const satisfies TransferStatus[];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const LISTING_SORTS = ['CREATED_DESC', 'PRICE_ASC', 'PRICE_DESC'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

export const LANGUAGES = ['en', 'kr', 'jp'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Who moves a listing (DECISIONS §4, §12): its seller, an operator reviewing it, or the server itself. */
export const LISTING_ACTORS = ['seller', 'operator', 'system'] as const;
export type ListingActorKind = (typeof LISTING_ACTORS)[number];

export const LISTING_ACTIONS = [
  'approve',
  'reject',
  'close',
  'pause',
  'resume',
  'autoClose',
  'review',
] as const;
export type ListingAction = (typeof LISTING_ACTIONS)[number];

export interface ListingTransition {
  action: ListingAction;
  by: ListingActorKind;
  from: readonly ListingStatus[];
  to: ListingStatus;
}

/**
 * The one listing transition table (DECISIONS §4, §12): an operator reviews a new listing, its seller
 * closes it (SPEC §4 "cancel") or pauses and resumes it (자리 비움), the server closes an exhausted one and
 * sends a live listing back to review when its seller moves the price more than 10% from the market
 * (PATCH /api/v1/sell-listings/{id}).
 */
export const LISTING_TRANSITIONS: readonly ListingTransition[] = [
  { action: 'approve', by: 'operator', from: ['PENDING_REVIEW'], to: 'OPEN' },
  { action: 'reject', by: 'operator', from: ['PENDING_REVIEW'], to: 'REJECTED' },
  { action: 'close', by: 'seller', from: ACTIVE_LISTING_STATUSES, to: 'CLOSED' },
  { action: 'pause', by: 'seller', from: ['OPEN'], to: 'PAUSED' },
  { action: 'resume', by: 'seller', from: ['PAUSED'], to: 'OPEN' },
  { action: 'autoClose', by: 'system', from: ['OPEN', 'PAUSED'], to: 'CLOSED' },
  { action: 'review', by: 'system', from: ['OPEN', 'PAUSED'], to: 'PENDING_REVIEW' },
];

/** The listing state machine (DECISIONS §4): the next status, or null when the action is not allowed. */
export function nextListingStatus(from: ListingStatus, action: ListingAction): ListingStatus | null {
  const t = LISTING_TRANSITIONS.find((x) => x.action === action && x.from.includes(from));
  return t ? t.to : null;
}

/**
 * The seller's "자리 비움" moves (DECISIONS §4, §12): pause = OPEN -> PAUSED (the listing leaves the trade
 * list and takes no orders; its escrow and live orders stay), resume = PAUSED -> OPEN. Each is a path of the
 * API (`POST /sell-listings/{id}/pause`, `/resume`) and a row of LISTING_TRANSITIONS.
 */
export const AVAILABILITY_MOVES = ['pause', 'resume'] as const satisfies readonly ListingAction[];
export type AvailabilityMove = (typeof AVAILABILITY_MOVES)[number];

/** Who moves an order (DECISIONS §11): its two parties, an operator, or the server's own timers. */
export const ORDER_ACTORS = ['buyer', 'seller', 'operator', 'system'] as const;
export type OrderActorKind = (typeof ORDER_ACTORS)[number];

export const ORDER_ACTIONS = [
  'paid',
  'cancel',
  'reject',
  'complete',
  'dispute',
  'expire',
  'escalate',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export interface OrderTransition {
  action: OrderAction;
  by: OrderActorKind;
  from: readonly OrderStatus[];
  to: OrderStatus;
}

/**
 * The one order transition table (DECISIONS §11): the API decides every move with it and the web app
 * shows the actions it allows. Time rules sit on top: a buyer's dispute only ORDER_DISPUTE_AFTER_SEC after
 * PAID; 'expire' at paymentDeadline, 'escalate' at releaseDeadline (and past a deadline the timer's move
 * wins over any party's action).
 */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  { action: 'paid', by: 'buyer', from: ['REQUESTED'], to: 'PAID' },
  { action: 'cancel', by: 'buyer', from: ['REQUESTED', 'PAID'], to: 'CANCELED' },
  { action: 'dispute', by: 'buyer', from: ['PAID'], to: 'DISPUTED' },
  { action: 'reject', by: 'seller', from: ['REQUESTED'], to: 'REJECTED' },
  { action: 'complete', by: 'seller', from: ['REQUESTED', 'PAID'], to: 'COMPLETED' },
  { action: 'dispute', by: 'seller', from: ['PAID'], to: 'DISPUTED' },
  { action: 'cancel', by: 'operator', from: ['REQUESTED', 'PAID', 'DISPUTED'], to: 'CANCELED' },
  { action: 'complete', by: 'operator', from: ['REQUESTED', 'PAID', 'DISPUTED'], to: 'COMPLETED' },
  { action: 'expire', by: 'system', from: ['REQUESTED'], to: 'EXPIRED' },
  { action: 'escalate', by: 'system', from: ['PAID'], to: 'DISPUTED' },
];

/** The order state machine (DECISIONS §11): the next status, or null when `by` may not do `action` now. */
export function nextOrderStatus(
  from: OrderStatus,
  action: OrderAction,
  by: OrderActorKind,
): OrderStatus | null {
  const t = ORDER_TRANSITIONS.find((x) => x.action === action && x.by === by && x.from.includes(from));
  return t ? t.to : null;
}

/** A row of a transition table: `by` may take `action` from any status of `from`. */
interface Transition<S extends string, A extends string, R extends string> {
  action: A;
  by: R;
  from: readonly S[];
}

/**
 * The actions `role` may take in `status` according to `table` (DESIGN habit 6: the web app's buttons come
 * from the machine, never from a list of final statuses), in the table's order, each once. Time rules are
 * not applied.
 */
export function allowedActions<S extends string, A extends string, R extends string>(
  table: readonly Transition<S, A, R>[],
  status: S,
  role: R,
): A[] {
  const out: A[] = [];
  for (const x of table)
    if (x.by === role && x.from.includes(status) && !out.includes(x.action)) out.push(x.action);
  return out;
}

/** The actions `by` may take on an order in `status` (the web app's buttons; time rules not applied). */
export function orderActionsFor(status: OrderStatus, by: OrderActorKind): OrderAction[] {
  return allowedActions(ORDER_TRANSITIONS, status, by);
}

/** The actions `by` may take on a listing in `status` (the seller's and the console's buttons). */
export function listingActionsFor(status: ListingStatus, by: ListingActorKind): ListingAction[] {
  return allowedActions(LISTING_TRANSITIONS, status, by);
}
