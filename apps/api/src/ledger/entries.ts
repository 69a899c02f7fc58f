import { COINS, type Coin } from '@p2p/contract';

/**
 * The catalogue of ledger entry kinds and their refs (DESIGN "one registry per concept", DECISIONS §4, §15).
 * Every movement (`movements.ts`) takes its `{ ref, kind }` from here, so a ref's format is written once: the
 * ref names the movement (a retry of the same movement makes the same ref, which `post()` answers with
 * `created: false`) and never a fresh row id that a retry would not repeat. The formats are stored in `ledger_entries.ref` and must never
 * change: a new format is a new kind.
 */

/** The kinds of ledger entry, as stored in `ledger_entries.kind`. */
export type EntryKind =
  | 'deposit'
  | 'escrow_hold'
  | 'escrow_release'
  | 'escrow_adjust'
  | 'trade'
  | 'trade_withdrawal'
  | 'transfer_internal'
  | 'withdrawal_request'
  | 'withdrawal_complete'
  | 'withdrawal_reject'
  | 'network_fee';

/** The ref and kind of one entry; `movements.ts` adds the postings. */
export interface EntryRef {
  ref: string;
  kind: EntryKind;
}

/** Why a listing's escrow goes back to its seller (one ref each: a listing ends once). */
export type ListingRelease = 'reject' | 'close';

/** Builders of every entry's ref, named by the movement. Ids are positive integers (row ids). */
export const entryRef = {
  /**
   * An operator credits an on-chain deposit (chain -> member available). Ref `deposit:<COIN>:<txid>:<index>`:
   * the chain's own id of the output, so crediting the same output twice is one movement (DECISIONS §5).
   */
  depositCredit: (coin: Coin, txid: string, index: number): EntryRef => ({
    ref: `deposit:${coin}:${txid}:${index}`,
    kind: 'deposit',
  }),
  /** A seller lists: maxQty moves available -> escrow (DECISIONS §4). Ref `listing:<listingId>:escrow`. */
  escrowHold: (listingId: number): EntryRef => ({ ref: `listing:${listingId}:escrow`, kind: 'escrow_hold' }),
  /**
   * A listing ends (operator reject or seller/auto close): the part not held by live orders moves escrow ->
   * available. Ref `listing:<listingId>:reject` or `listing:<listingId>:close` (DECISIONS §4).
   */
  listingEscrowRelease: (listingId: number, why: ListingRelease): EntryRef => ({
    ref: `listing:${listingId}:${why}`,
    kind: 'escrow_release',
  }),
  /**
   * A seller edits an active listing's maxQty (PATCH /api/v1/sell-listings/{id}): the difference moves
   * between available and escrow. Ref `listing:<listingId>:edit:<edit>`, `edit` the listing's own count of
   * quantity edits (1, 2, ...), so each edit is one movement and a retry of the same edit is the same ref.
   */
  listingEscrowAdjust: (listingId: number, edit: number): EntryRef => ({
    ref: `listing:${listingId}:edit:${edit}`,
    kind: 'escrow_adjust',
  }),
  /**
   * A buy order ends without delivery after its listing closed: its quantity moves escrow -> the seller's
   * available (DECISIONS §4, §11). Ref `order:<orderId>:release`.
   */
  orderEscrowRelease: (orderId: number): EntryRef => ({
    ref: `order:${orderId}:release`,
    kind: 'escrow_release',
  }),
  /**
   * A buy order completes: seller escrow -> buyer available (INTERNAL, kind `trade`) or -> withdrawal_pending
   * (EXTERNAL, kind `trade_withdrawal`), less the trade fee -> fees (DECISIONS §3, §4). Ref
   * `order:<orderId>:complete` for both: an order is delivered once, whichever way.
   */
  tradeDelivery: (orderId: number, internal: boolean): EntryRef => ({
    ref: `order:${orderId}:complete`,
    kind: internal ? 'trade' : 'trade_withdrawal',
  }),
  /** A member sends coins to another member's wallet (available -> available). Ref `transfer:<transferId>`. */
  internalTransfer: (transferId: number): EntryRef => ({
    ref: `transfer:${transferId}`,
    kind: 'transfer_internal',
  }),
  /**
   * A member withdraws to an outside address: available -> withdrawal_pending (+ fee -> fees). Ref
   * `withdraw:<transferId>`.
   */
  withdrawalRequest: (transferId: number): EntryRef => ({
    ref: `withdraw:${transferId}`,
    kind: 'withdrawal_request',
  }),
  /** The operator marks a withdrawal sent: withdrawal_pending -> chain. Ref `withdraw:<transferId>:complete`. */
  withdrawalComplete: (transferId: number): EntryRef => ({
    ref: `withdraw:${transferId}:complete`,
    kind: 'withdrawal_complete',
  }),
  /**
   * The operator rejects a withdrawal: withdrawal_pending -> available (the buyer's, for an order's delivery).
   * Ref `withdraw:<transferId>:reject`.
   */
  withdrawalReject: (transferId: number): EntryRef => ({
    ref: `withdraw:${transferId}:reject`,
    kind: 'withdrawal_reject',
  }),
  /**
   * The network fee of a withdrawal's confirmed transaction, paid by the platform (DECISIONS §18). Ref
   * `withdraw:<transferId>:network-fee`: a withdrawal is paid once, so its fee is posted once.
   */
  withdrawalNetworkFee: (transferId: number): EntryRef => ({
    ref: `withdraw:${transferId}:network-fee`,
    kind: 'network_fee',
  }),
  /**
   * The network fee of a confirmed sweep of a deposit address to the hot address (DECISIONS §18). Ref
   * `sweep:<COIN>:<sweepId>:network-fee`.
   */
  sweepNetworkFee: (coin: Coin, sweepId: number): EntryRef => ({
    ref: `sweep:${coin}:${sweepId}:network-fee`,
    kind: 'network_fee',
  }),
  /**
   * The network fee a failed withdrawal attempt still cost (an XRP payment validated with a tec result burns its
   * fee, DECISIONS §18). Ref `attempt:<COIN>:<attemptId>:network-fee`: per attempt, so a retry that completes
   * posts its own fee under the withdrawal's ref.
   */
  failedAttemptNetworkFee: (coin: Coin, attemptId: number): EntryRef => ({
    ref: `attempt:${coin}:${attemptId}:network-fee`,
    kind: 'network_fee',
  }),
  /**
   * The network fee of a confirmed sweep of the hot wallet's excess to COLD_ADDRESS_<COIN> (DECISIONS §18, the
   * hot-wallet cap). Ref `cold:<COIN>:<coldSweepId>:network-fee`.
   */
  coldSweepNetworkFee: (coin: Coin, coldSweepId: number): EntryRef => ({
    ref: `cold:${coin}:${coldSweepId}:network-fee`,
    kind: 'network_fee',
  }),
} as const;

/** The name of a builder of `entryRef`: one per kind of movement. */
export type EntryName = keyof typeof entryRef;

/** A ref read back into the builder and arguments that made it (audits, tests). */
export type ParsedEntryRef =
  | { name: 'depositCredit'; coin: Coin; txid: string; index: number }
  | { name: 'escrowHold'; listingId: number }
  | { name: 'listingEscrowRelease'; listingId: number; why: ListingRelease }
  | { name: 'listingEscrowAdjust'; listingId: number; edit: number }
  | { name: 'orderEscrowRelease'; orderId: number }
  | { name: 'tradeDelivery'; orderId: number }
  | { name: 'internalTransfer'; transferId: number }
  | { name: 'withdrawalRequest'; transferId: number }
  | { name: 'withdrawalComplete'; transferId: number }
  | { name: 'withdrawalReject'; transferId: number }
  | { name: 'withdrawalNetworkFee'; transferId: number }
  | { name: 'sweepNetworkFee'; coin: Coin; sweepId: number }
  | { name: 'failedAttemptNetworkFee'; coin: Coin; attemptId: number }
  | { name: 'coldSweepNetworkFee'; coin: Coin; coldSweepId: number };

const ID = '([1-9][0-9]*)';
const isCoin = (s: string): s is Coin => (COINS as readonly string[]).includes(s);

/**
 * Reads a stored ref back into its movement, or null when it has none of the catalogue's formats. The txid
 * of a deposit may itself contain ':' (the index is the last field). `tradeDelivery` does not say which way
 * the coins went: that is the entry's kind.
 */
export function parseEntryRef(ref: string): ParsedEntryRef | null {
  let m = new RegExp(`^listing:${ID}:(escrow|reject|close)$`).exec(ref);
  if (m) {
    const listingId = Number(m[1]);
    if (m[2] === 'escrow') return { name: 'escrowHold', listingId };
    return { name: 'listingEscrowRelease', listingId, why: m[2] === 'reject' ? 'reject' : 'close' };
  }
  m = new RegExp(`^listing:${ID}:edit:${ID}$`).exec(ref);
  if (m) return { name: 'listingEscrowAdjust', listingId: Number(m[1]), edit: Number(m[2]) };
  m = new RegExp(`^order:${ID}:(release|complete)$`).exec(ref);
  if (m) {
    const orderId = Number(m[1]);
    return m[2] === 'release' ? { name: 'orderEscrowRelease', orderId } : { name: 'tradeDelivery', orderId };
  }
  m = new RegExp(`^transfer:${ID}$`).exec(ref);
  if (m) return { name: 'internalTransfer', transferId: Number(m[1]) };
  m = new RegExp(`^withdraw:${ID}(?::(complete|reject|network-fee))?$`).exec(ref);
  if (m) {
    const transferId = Number(m[1]);
    if (m[2] === 'complete') return { name: 'withdrawalComplete', transferId };
    if (m[2] === 'reject') return { name: 'withdrawalReject', transferId };
    if (m[2] === 'network-fee') return { name: 'withdrawalNetworkFee', transferId };
    return { name: 'withdrawalRequest', transferId };
  }
  m = new RegExp(`^sweep:([A-Z]+):${ID}:network-fee$`).exec(ref);
  if (m?.[1] && isCoin(m[1])) return { name: 'sweepNetworkFee', coin: m[1], sweepId: Number(m[2]) };
  m = new RegExp(`^attempt:([A-Z]+):${ID}:network-fee$`).exec(ref);
  if (m?.[1] && isCoin(m[1])) return { name: 'failedAttemptNetworkFee', coin: m[1], attemptId: Number(m[2]) };
  m = new RegExp(`^cold:([A-Z]+):${ID}:network-fee$`).exec(ref);
  if (m?.[1] && isCoin(m[1])) return { name: 'coldSweepNetworkFee', coin: m[1], coldSweepId: Number(m[2]) };
  m = /^deposit:([A-Z]+):(.+):(0|[1-9][0-9]*)$/.exec(ref);
  if (m?.[1] && m[2] && isCoin(m[1]))
    return { name: 'depositCredit', coin: m[1], txid: m[2], index: Number(m[3]) };
  return null;
}
