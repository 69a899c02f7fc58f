/** Coins traded (SPEC §9). */
export const COINS = ['BTC', 'ETH', 'XRP', 'TRX'] as const;
export type Coin = (typeof COINS)[number];

/** Country calling codes used for trade matching (SPEC §3, §9). Anything else is shown as 'other'. */
export const COUNTRY_CODES = ['82', '1', '81'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

export const ROLES = ['MEMBER', 'OPERATOR'] as const;
export type Role = (typeof ROLES)[number];

export const MEMBER_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
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

/** Buy order states (SPEC §4, DECISIONS §4). */
export const ORDER_STATUSES = ['REQUESTED', 'COMPLETED', 'CANCELED', 'REJECTED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const DEST_TYPES = ['INTERNAL', 'EXTERNAL'] as const;
export type DestType = (typeof DEST_TYPES)[number];

export const TRANSFER_TYPES = ['WITHDRAW', 'DEPOSIT'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

export const TRANSFER_STATUSES = ['PENDING', 'COMPLETED', 'REJECTED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const LISTING_SORTS = ['CREATED_DESC', 'PRICE_ASC', 'PRICE_DESC'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

export const LANGUAGES = ['en', 'kr', 'jp'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Statuses after which detail screens show no cancel/complete buttons (SPEC §4). */
export const FINAL_STATUSES = ['CLOSED', 'CANCELED', 'REJECTED', 'COMPLETED'] as const;

/** True when a detail screen may offer cancel (and complete, for sell history) for this status (SPEC §4). */
export function isActionable(status: string): boolean {
  return !(FINAL_STATUSES as readonly string[]).includes(status);
}

type ListingAction = 'approve' | 'reject' | 'close' | 'autoClose';
const LISTING_TRANSITIONS: Record<ListingAction, { from: readonly ListingStatus[]; to: ListingStatus }> = {
  approve: { from: ['PENDING_REVIEW'], to: 'OPEN' },
  reject: { from: ['PENDING_REVIEW'], to: 'REJECTED' },
  close: { from: ACTIVE_LISTING_STATUSES, to: 'CLOSED' },
  autoClose: { from: ['OPEN', 'PAUSED'], to: 'CLOSED' },
};

/** The listing state machine (DECISIONS §4): the next status, or null when the action is not allowed. */
export function nextListingStatus(from: ListingStatus, action: ListingAction): ListingStatus | null {
  const t = LISTING_TRANSITIONS[action];
  return t.from.includes(from) ? t.to : null;
}

type OrderAction = 'cancel' | 'reject' | 'complete';
const ORDER_TRANSITIONS: Record<OrderAction, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  cancel: { from: ['REQUESTED'], to: 'CANCELED' },
  reject: { from: ['REQUESTED'], to: 'REJECTED' },
  complete: { from: ['REQUESTED'], to: 'COMPLETED' },
};

/** The buy order state machine (DECISIONS §4): the next status, or null when the action is not allowed. */
export function nextOrderStatus(from: OrderStatus, action: OrderAction): OrderStatus | null {
  const t = ORDER_TRANSITIONS[action];
  return t.from.includes(from) ? t.to : null;
}
