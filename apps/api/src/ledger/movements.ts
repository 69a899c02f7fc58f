import type { Coin } from '@p2p/contract';
import { account } from './accounts.ts';
import { type EntryKind, entryRef, type ListingRelease } from './entries.ts';
import type { PostingInput } from './ledger.ts';

/**
 * Every money movement of the platform, one pure builder each (DECISIONS §4): a builder takes the
 * movement's facts and returns the whole entry `{ ref, kind, postings }` that a poster hands to
 * `post(tx, movements.x(...))`. The postings of a movement are written here and nowhere else, so what a
 * movement does can be read (and property-tested) without a database. A new movement (a chain deposit
 * credit, a withdrawal broadcast, a network fee, a sweep) is a new builder here and, for a new ref
 * format, a new entry in `entries.ts`, which keeps every ref's format.
 *
 * Amounts are bigint base units of 1e-8 coin. Ids are row ids (positive integers). Every builder throws
 * RangeError on input that cannot be a movement (a non-positive quantity, a negative fee, a fee that
 * swallows the delivery, an id that is not a positive integer): its callers validate the member's input
 * first, so a RangeError here is a bug in the caller, never a member's mistake.
 */

/** One ledger entry, ready for `post()`: its unique ref, its kind and postings that sum to zero per coin. */
export interface Movement {
  ref: string;
  kind: EntryKind;
  postings: PostingInput[];
}

function requireId(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}`);
}

function requirePositive(name: string, v: bigint): void {
  if (v <= 0n) throw new RangeError(`${name} must be positive, got ${v}`);
}

function requireFee(fee: bigint): void {
  if (fee < 0n) throw new RangeError(`fee must not be negative, got ${fee}`);
}

/** The fee posting when there is one: a zero fee posts nothing (the ledger refuses zero postings). */
function feeTo(coin: Coin, amount: bigint): PostingInput[] {
  return amount === 0n ? [] : [{ account: account.fees(coin), amount }];
}

/** A network fee paid by the platform: out of its addresses (chain up) and onto its network-fee account. */
function networkFeePostings(coin: Coin, units: bigint): PostingInput[] {
  return [
    { account: account.networkFee(coin), amount: -units },
    { account: account.chain(coin), amount: units },
  ];
}

export const movements = {
  /**
   * An on-chain deposit is credited to the wallet's owner: chain -> `memberId` available, `units` (DECISIONS
   * §5, §17), whoever credits it: an operator, the chain watcher at the required confirmations, or an operator
   * assigning an unmatched payment. One ref for all three, so an output is credited once whichever way. Ref `deposit:<COIN>:<txid>:<index>` (kind `deposit`). RangeError when `units` <= 0,
   * `txid` is empty, `index` is not a whole number >= 0 or `memberId` is not a positive integer.
   */
  depositCredit(p: { coin: Coin; txid: string; index: number; memberId: number; units: bigint }): Movement {
    if (p.txid.length === 0) throw new RangeError('txid must not be empty');
    if (!Number.isSafeInteger(p.index) || p.index < 0)
      throw new RangeError(`index must be a whole number, got ${p.index}`);
    requireId('memberId', p.memberId);
    requirePositive('units', p.units);
    return {
      ...entryRef.depositCredit(p.coin, p.txid, p.index),
      postings: [
        { account: account.chain(p.coin), amount: -p.units },
        { account: account.available(p.memberId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A seller lists: the listing's maxQty (`units`) moves the seller's available -> escrow (DECISIONS §4).
   * Ref `listing:<listingId>:escrow` (kind `escrow_hold`). RangeError when `units` <= 0 or an id is not a
   * positive integer.
   */
  escrowHold(p: { listingId: number; sellerId: number; coin: Coin; units: bigint }): Movement {
    requireId('listingId', p.listingId);
    requireId('sellerId', p.sellerId);
    requirePositive('units', p.units);
    return {
      ...entryRef.escrowHold(p.listingId),
      postings: [
        { account: account.available(p.sellerId, p.coin), amount: -p.units },
        { account: account.escrow(p.sellerId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A listing ends (`why`: an operator's reject, or a seller's or automatic close): the part not held by
   * live orders (`units`) moves the seller's escrow -> available, the mirror of its hold (DECISIONS §4).
   * Ref `listing:<listingId>:reject` or `listing:<listingId>:close` (kind `escrow_release`). Nothing left
   * means no entry: the caller skips zero. RangeError when `units` <= 0 or an id is not a positive integer.
   */
  listingEscrowRelease(p: {
    listingId: number;
    why: ListingRelease;
    sellerId: number;
    coin: Coin;
    units: bigint;
  }): Movement {
    requireId('listingId', p.listingId);
    requireId('sellerId', p.sellerId);
    requirePositive('units', p.units);
    return {
      ...entryRef.listingEscrowRelease(p.listingId, p.why),
      postings: [
        { account: account.escrow(p.sellerId, p.coin), amount: -p.units },
        { account: account.available(p.sellerId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A seller changes an active listing's maxQty (PATCH /api/v1/sell-listings/{id}, DECISIONS §4): `units`
   * is the signed change, positive = more held (available -> escrow), negative = given back (escrow ->
   * available). Ref `listing:<listingId>:edit:<edit>` (kind `escrow_adjust`). A zero change is no movement:
   * the caller skips it. RangeError when `units` is 0 or an id or `edit` is not a positive integer.
   */
  listingEscrowAdjust(p: {
    listingId: number;
    edit: number;
    sellerId: number;
    coin: Coin;
    units: bigint;
  }): Movement {
    requireId('listingId', p.listingId);
    requireId('edit', p.edit);
    requireId('sellerId', p.sellerId);
    if (p.units === 0n) throw new RangeError('units must not be zero');
    return {
      ...entryRef.listingEscrowAdjust(p.listingId, p.edit),
      postings: [
        { account: account.available(p.sellerId, p.coin), amount: -p.units },
        { account: account.escrow(p.sellerId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A buy order ends without delivery after its listing closed: its requestQty (`units`) moves the seller's
   * escrow -> available (DECISIONS §4, §11). Ref `order:<orderId>:release` (kind `escrow_release`).
   * RangeError when `units` <= 0 or an id is not a positive integer.
   */
  orderEscrowRelease(p: { orderId: number; sellerId: number; coin: Coin; units: bigint }): Movement {
    requireId('orderId', p.orderId);
    requireId('sellerId', p.sellerId);
    requirePositive('units', p.units);
    return {
      ...entryRef.orderEscrowRelease(p.orderId),
      postings: [
        { account: account.escrow(p.sellerId, p.coin), amount: -p.units },
        { account: account.available(p.sellerId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A buy order completes (DECISIONS §3, §4, §11): `units` (its requestQty) leave the seller's escrow;
   * `units - fee` go to the buyer's available (`internal`, kind `trade`) or to withdrawal_pending for an
   * outside address (kind `trade_withdrawal`); the trade `fee`, paid by the buyer, goes to fees. Ref
   * `order:<orderId>:complete` either way: an order is delivered once. RangeError when `units` <= 0, `fee`
   * < 0, `fee` >= `units` (the buyer would receive nothing) or an id is not a positive integer.
   */
  tradeDelivery(p: {
    orderId: number;
    sellerId: number;
    buyerId: number;
    coin: Coin;
    units: bigint;
    fee: bigint;
    internal: boolean;
  }): Movement {
    requireId('orderId', p.orderId);
    requireId('sellerId', p.sellerId);
    requireId('buyerId', p.buyerId);
    requirePositive('units', p.units);
    requireFee(p.fee);
    if (p.fee >= p.units) throw new RangeError(`fee ${p.fee} must be less than units ${p.units}`);
    const to = p.internal ? account.available(p.buyerId, p.coin) : account.withdrawalPending(p.coin);
    return {
      ...entryRef.tradeDelivery(p.orderId, p.internal),
      postings: [
        { account: account.escrow(p.sellerId, p.coin), amount: -p.units },
        { account: to, amount: p.units - p.fee },
        ...feeTo(p.coin, p.fee),
      ],
    };
  },

  /**
   * A member sends `units` to another member's wallet: available -> available (DECISIONS §5), no fee.
   * Ref `transfer:<transferId>` (kind `transfer_internal`, the id of the sender's row). RangeError when
   * `units` <= 0, the two members are the same or an id is not a positive integer.
   */
  internalTransfer(p: {
    transferId: number;
    fromMemberId: number;
    toMemberId: number;
    coin: Coin;
    units: bigint;
  }): Movement {
    requireId('transferId', p.transferId);
    requireId('fromMemberId', p.fromMemberId);
    requireId('toMemberId', p.toMemberId);
    if (p.fromMemberId === p.toMemberId) throw new RangeError('an internal transfer needs two members');
    requirePositive('units', p.units);
    return {
      ...entryRef.internalTransfer(p.transferId),
      postings: [
        { account: account.available(p.fromMemberId, p.coin), amount: -p.units },
        { account: account.available(p.toMemberId, p.coin), amount: p.units },
      ],
    };
  },

  /**
   * A member asks to withdraw `units` to an outside address (DECISIONS §5): `units + fee` leave their
   * available, `units` wait in withdrawal_pending, the coin's withdrawal `fee` (charged on top) goes to
   * fees. Ref `withdraw:<transferId>` (kind `withdrawal_request`). RangeError when `units` <= 0, `fee` < 0
   * or an id is not a positive integer.
   */
  withdrawalRequest(p: {
    transferId: number;
    memberId: number;
    coin: Coin;
    units: bigint;
    fee: bigint;
  }): Movement {
    requireId('transferId', p.transferId);
    requireId('memberId', p.memberId);
    requirePositive('units', p.units);
    requireFee(p.fee);
    return {
      ...entryRef.withdrawalRequest(p.transferId),
      postings: [
        { account: account.available(p.memberId, p.coin), amount: -(p.units + p.fee) },
        { account: account.withdrawalPending(p.coin), amount: p.units },
        ...feeTo(p.coin, p.fee),
      ],
    };
  },

  /**
   * The operator marks a withdrawal (a member's, or a buy order's EXTERNAL delivery) sent: `units`
   * withdrawal_pending -> chain (DECISIONS §5, §8). Ref `withdraw:<transferId>:complete` (kind
   * `withdrawal_complete`). RangeError when `units` <= 0 or the id is not a positive integer.
   */
  withdrawalComplete(p: { transferId: number; coin: Coin; units: bigint }): Movement {
    requireId('transferId', p.transferId);
    requirePositive('units', p.units);
    return {
      ...entryRef.withdrawalComplete(p.transferId),
      postings: [
        { account: account.withdrawalPending(p.coin), amount: -p.units },
        { account: account.chain(p.coin), amount: p.units },
      ],
    };
  },

  /**
   * The operator rejects a withdrawal (DECISIONS §3, §5, §8): `units` withdrawal_pending -> the available of
   * `refundMemberId` (the member who withdrew, or the buyer for a buy order's delivery), and `fee` back
   * from fees: the withdrawal's own fee, the mirror of its request; 0 for a buy order's delivery, whose
   * trade fee was earned by the completed trade. Ref `withdraw:<transferId>:reject` (kind
   * `withdrawal_reject`). RangeError when `units` <= 0, `fee` < 0 or an id is not a positive integer.
   */
  withdrawalReject(p: {
    transferId: number;
    refundMemberId: number;
    coin: Coin;
    units: bigint;
    fee: bigint;
  }): Movement {
    requireId('transferId', p.transferId);
    requireId('refundMemberId', p.refundMemberId);
    requirePositive('units', p.units);
    requireFee(p.fee);
    return {
      ...entryRef.withdrawalReject(p.transferId),
      postings: [
        { account: account.withdrawalPending(p.coin), amount: -p.units },
        { account: account.available(p.refundMemberId, p.coin), amount: p.units + p.fee },
        ...feeTo(p.coin, -p.fee),
      ],
    };
  },

  /**
   * The platform pays the network fee `units` of a withdrawal's confirmed transaction (DECISIONS §18): the
   * coins left the platform's addresses, so `chain:<COIN>` rises by `units` and the platform's
   * `network-fee:<COIN>` account falls by as much. Ref `withdraw:<transferId>:network-fee` (kind
   * `network_fee`). A zero fee is no entry: the caller skips it. RangeError when `units` <= 0 or the id is not
   * a positive integer.
   */
  withdrawalNetworkFee(p: { transferId: number; coin: Coin; units: bigint }): Movement {
    requireId('transferId', p.transferId);
    requirePositive('units', p.units);
    return { ...entryRef.withdrawalNetworkFee(p.transferId), postings: networkFeePostings(p.coin, p.units) };
  },

  /**
   * The network fee `units` of a confirmed sweep of a deposit address to the hot address (DECISIONS §18), as
   * withdrawalNetworkFee. Ref `sweep:<COIN>:<sweepId>:network-fee` (kind `network_fee`). RangeError when
   * `units` <= 0 or the id is not a positive integer.
   */
  sweepNetworkFee(p: { sweepId: number; coin: Coin; units: bigint }): Movement {
    requireId('sweepId', p.sweepId);
    requirePositive('units', p.units);
    return { ...entryRef.sweepNetworkFee(p.coin, p.sweepId), postings: networkFeePostings(p.coin, p.units) };
  },

  /**
   * The network fee `units` a failed withdrawal attempt still cost (XRP: validated with a tec result), as
   * withdrawalNetworkFee. Ref `attempt:<COIN>:<attemptId>:network-fee` (kind `network_fee`). RangeError when
   * `units` <= 0 or the id is not a positive integer.
   */
  failedAttemptNetworkFee(p: { attemptId: number; coin: Coin; units: bigint }): Movement {
    requireId('attemptId', p.attemptId);
    requirePositive('units', p.units);
    return {
      ...entryRef.failedAttemptNetworkFee(p.coin, p.attemptId),
      postings: networkFeePostings(p.coin, p.units),
    };
  },

  /**
   * The network fee `units` of a confirmed sweep of the hot wallet's excess to the cold address (DECISIONS §18),
   * as withdrawalNetworkFee: the swept coins stay the platform's (`chain:<COIN>` counts hot and cold alike), only
   * the fee left. Ref `cold:<COIN>:<coldSweepId>:network-fee`. RangeError when `units` <= 0 or the id is not a
   * positive integer.
   */
  coldSweepNetworkFee(p: { coldSweepId: number; coin: Coin; units: bigint }): Movement {
    requireId('coldSweepId', p.coldSweepId);
    requirePositive('units', p.units);
    return {
      ...entryRef.coldSweepNetworkFee(p.coin, p.coldSweepId),
      postings: networkFeePostings(p.coin, p.units),
    };
  },
} as const;

/** The name of a movement: one per builder of `entryRef`. */
export type MovementName = keyof typeof movements;
