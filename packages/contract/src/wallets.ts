import { z } from 'zod';
import {
  DEST_TYPES,
  TRANSFER_STATUSES,
  TRANSFER_TYPES,
  WALLET_STATUSES,
  WITHDRAWAL_STATUSES,
} from './enums.ts';
import { pageOf } from './envelope.ts';
import { FIELD_CODES as F } from './errors.ts';
import { coinField, cursorField, idParam, qtyField } from './fields.ts';
import { StepUp } from './identity.ts';
import { LIMITS } from './limits.ts';
import { opsPageSize, opsReasonField } from './ops.ts';
import { beneficiary, travelRuleRecord } from './trust.ts';

/**
 * Request and response shapes of wallets, transfers and the operator's deposit and withdrawal calls
 * (SPEC §3, §5 "Withdraw", §7; DECISIONS §5, §10). Quantities are decimal strings, times ISO 8601.
 */

/** The largest XRP destination tag (a UInt32 on the XRP Ledger). */
export const DEST_TAG_MAX = 4_294_967_295;

/**
 * An XRP withdrawal's destination tag (DECISIONS §17): an integer 0..2^32-1, optional. Only XRP takes one; the
 * server refuses it on another coin's withdrawal (VALIDATION_FAILED {destTag: INVALID_FORMAT}).
 */
export const destTagField = z
  .number(F.INVALID_TYPE)
  .int(F.INVALID_FORMAT)
  .min(0, F.INVALID_FORMAT)
  .max(DEST_TAG_MAX, F.INVALID_FORMAT);

/** A wallet as GET /api/v1/wallets lists it: `balance` is the available balance, escrow shown apart. */
export const wallet = z.object({
  id: z.number().int(),
  coinCode: coinField,
  balance: z.string(),
  escrowBalance: z.string(),
  /**
   * Where to deposit: the wallet's own address, or for XRP the platform's receiving account, paid with
   * `destinationTag` (DECISIONS §17).
   */
  address: z.string(),
  /** XRP: this wallet's destination tag (1..2^32-1), to be sent with every deposit; null for other coins. */
  destinationTag: z.number().int().min(1).max(DEST_TAG_MAX).nullable(),
  status: z.enum(WALLET_STATUSES),
  createdAt: z.string(),
  /** What one external withdrawal of this coin costs (DECISIONS §3), a decimal coin amount, for the review. */
  withdrawFee: z.string(),
  /** DECISIONS §19: what an external withdrawal may take now (balance less the coins still on hold). */
  withdrawableBalance: z.string(),
  /** DECISIONS §19: when the last hold on this wallet ends (ISO), null when nothing is held. */
  heldUntil: z.string().nullable(),
});
export type Wallet = z.infer<typeof wallet>;

export const walletList = z.array(wallet);

/** POST /api/v1/wallets/create: one wallet per coin (else 409 WALLET_EXISTS). */
export const walletCreateBody = z.object({ coinCode: coinField });
export type WalletCreateBody = z.infer<typeof walletCreateBody>;

/** A transfer row of a wallet's history (SPEC §3 "Transfer"). */
export const transfer = z.object({
  transferId: z.number().int(),
  walletId: z.number().int(),
  coinCode: coinField,
  type: z.enum(TRANSFER_TYPES),
  destType: z.enum(DEST_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  /** Destination address of a withdrawal; source address (when known) of a deposit. */
  address: z.string(),
  amount: z.string(),
  fee: z.string(),
  /** XRP: the withdrawal's destination tag, or an internal deposit's sender's tag (DECISIONS §17); else null. */
  destTag: z.number().int().nullable(),
  txid: z.string().nullable(),
  /**
   * Where the txid can be looked at (EXPLORER_TX_URL_<COIN> with the txid in it, DECISIONS §18); null without a
   * txid or a configured explorer.
   */
  explorerUrl: z.string().nullable().optional(),
  /**
   * A deposit the chain watcher found (DECISIONS §17): blocks on top of (and including) the one it is in,
   * 0 while its transaction is out of the chain after a reorg; it is credited when this reaches
   * `requiredConfirmations` (CHAIN_CONFIRMATIONS_<COIN> when it was seen) and stops counting there. Both null
   * for withdrawals, internal transfers and deposits an operator credited.
   */
  confirmations: z.number().int().nullable(),
  requiredConfirmations: z.number().int().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** A REJECTED withdrawal: the operator's reason, as given; null otherwise. */
  reason: z.string().nullable(),
  /** The P2P order this row delivered (the seller's sale out of escrow, the buyer's purchase in); else null. */
  buyOrderId: z.number().int().nullable(),
});
export type Transfer = z.infer<typeof transfer>;

export const transferPage = pageOf(transfer);
export type TransferPage = z.infer<typeof transferPage>;

/** GET /transfer query: the caller's own wallet, newest first, opaque keyset cursor. */
export const transferListQuery = z.object({
  walletId: idParam,
  cursor: cursorField.optional(),
  size: opsPageSize,
});

/**
 * A withdraw amount (SPEC §5 "Withdraw"): digits and one dot, at most 6 decimals, > 0. Thousands
 * separators the form shows are accepted when correctly grouped ("1,234.5") and removed.
 */
export const withdrawAmountField = z.preprocess(
  (v) =>
    typeof v === 'string' && /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(v.trim()) ? v.trim().replaceAll(',', '') : v,
  qtyField(LIMITS.withdrawDecimals),
);

const addressInput = z.string(F.INVALID_TYPE).trim().max(128, F.TOO_LONG);

/**
 * POST /transfer/request (SPEC §7): INTERNAL needs destInternalAddress (another member's wallet of the
 * same coin), EXTERNAL needs destExternalAddress (checked against the chain's checksum rules). XRP may add
 * `destTag` (DECISIONS §17); to the platform's own XRP account it names the member's wallet and is required.
 */
export const transferRequestBody = z
  .object({
    fromWalletId: idParam,
    destType: z.enum(DEST_TYPES, F.INVALID_FORMAT),
    amount: withdrawAmountField,
    destInternalAddress: addressInput.nullish(),
    destExternalAddress: addressInput.nullish(),
    destTag: destTagField.nullish(),
    /** Required for both destinations (DECISIONS §13: 422 STEP_UP_REQUIRED without it). */
    stepUp: StepUp.optional(),
    /** DECISIONS §19: the Travel Rule's receiver, needed for an external withdrawal worth TRAVEL_RULE_MIN_KRW+. */
    beneficiary: beneficiary.optional(),
  })
  .superRefine((b, ctx) => {
    const key = b.destType === 'INTERNAL' ? 'destInternalAddress' : 'destExternalAddress';
    if (!b[key]) ctx.addIssue({ code: 'custom', path: [key], message: F.REQUIRED });
  });
export type TransferRequestBody = z.infer<typeof transferRequestBody>;

/**
 * GET /api/v1/transfer/recipient (the 내부 지갑 review): who an internal transfer of `coinCode` to `address`
 * (XRP: the platform's account with `destTag`) would reach. Looked up before the password is asked.
 */
export const transferRecipientQuery = z.object({
  coinCode: coinField,
  address: z.string(F.REQUIRED).trim().min(1, F.REQUIRED).max(128, F.TOO_LONG),
  destTag: z.coerce
    .number(F.INVALID_FORMAT)
    .int(F.INVALID_FORMAT)
    .min(0, F.INVALID_FORMAT)
    .max(DEST_TAG_MAX, F.INVALID_FORMAT)
    .optional(),
});
export type TransferRecipientQuery = z.infer<typeof transferRecipientQuery>;

/** The receiving member, named as public lists name people (DECISIONS §10: first and last character kept). */
export const transferRecipient = z.object({ nickname: z.string() });
export type TransferRecipient = z.infer<typeof transferRecipient>;

/** A chain transaction id as the operator types it: trimmed, 1..128 characters. */
export const txidField = z
  .string(F.TXID_REQUIRED)
  .trim()
  .min(1, F.TXID_REQUIRED)
  .max(LIMITS.txidMax, F.TOO_LONG);

/** POST /ops/api/v1/deposits: credit an on-chain deposit; idempotent on coin + txid + index. */
export const opsDepositBody = z.object({
  coinCode: coinField,
  address: z.string(F.REQUIRED).trim().min(1, F.REQUIRED).max(128, F.TOO_LONG),
  amount: qtyField(),
  txid: txidField,
  /** Output / event index inside the transaction (default 0). */
  index: z
    .number(F.INVALID_TYPE)
    .int(F.INVALID_FORMAT)
    .min(0, F.INVALID_FORMAT)
    .max(1_000_000, F.INVALID_FORMAT)
    .default(0),
  /** XRP: the payment's destination tag; required when `address` is the platform's receiving account. */
  destinationTag: destTagField.nullish(),
});
export type OpsDepositBody = z.input<typeof opsDepositBody>;

export const opsDeposit = z.object({
  transferId: z.number().int(),
  walletId: z.number().int(),
  memberId: z.number().int(),
  coinCode: coinField,
  address: z.string(),
  amount: z.string(),
  txid: z.string(),
  index: z.number().int(),
  status: z.enum(TRANSFER_STATUSES),
  createdAt: z.string(),
  /** False when this txid + index was credited before: the answer is that deposit, nothing moved. */
  created: z.boolean(),
});
export type OpsDeposit = z.infer<typeof opsDeposit>;

/** GET /ops/api/v1/withdrawals query: external withdrawals by status (default PENDING), oldest first. */
export const opsWithdrawalsQuery = z.object({
  status: z.enum(WITHDRAWAL_STATUSES, F.INVALID_FORMAT).default('PENDING'),
  size: opsPageSize,
  cursor: cursorField.optional(),
});

export const opsWithdrawal = z.object({
  withdrawalId: z.number().int(),
  memberId: z.number().int(),
  loginId: z.string(),
  coinCode: coinField,
  amount: z.string(),
  fee: z.string(),
  address: z.string(),
  /** XRP: the destination tag to pay with (DECISIONS §17); null when none was given or for other coins. */
  destTag: z.number().int().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  /** Set when the withdrawal delivers a completed buy order to the buyer's external address. */
  buyOrderId: z.number().int().nullable(),
  /** Who gets the amount back on reject: the buyer for an order's delivery, else the member. */
  refundMemberId: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** DECISIONS §18: when it was approved (by an operator, `approvedBy`, or by itself: approvedBy null). */
  approvedAt: z.string().nullable(),
  approvedBy: z.number().int().nullable(),
  /** Why the payout worker could not go on (a signer refusal, a node error, the failure reason); else null. */
  lastError: z.string().nullable(),
  /** The txid on the coin's explorer (EXPLORER_TX_URL_<COIN>), or null. */
  explorerUrl: z.string().nullable(),
  /** Tries of paying it on chain: 1 for the first, more after retries by replacement. */
  attempts: z.number().int(),
  /** DECISIONS §19: originator and beneficiary of a Travel Rule withdrawal; null or absent when not needed. */
  travelRule: travelRuleRecord.nullish(),
});
export type OpsWithdrawal = z.infer<typeof opsWithdrawal>;

export const opsWithdrawalPage = pageOf(opsWithdrawal);

export const opsWithdrawalCompleteBody = z.object({ txid: txidField });
export const opsWithdrawalRejectBody = z.object({ reason: opsReasonField });

/**
 * GET /ops/api/v1/withdrawals/overview (DECISIONS §18): per coin, what the console shows above the queue: the
 * hot address and its balance on chain (null without a node or when the node did not answer), the cold
 * address (COLD_ADDRESS_<COIN>), members' liabilities (available + escrow + pending withdrawals) and, when
 * known, the cold share. Coin amounts are decimal strings.
 */
export const opsPayoutCoin = z.object({
  coinCode: coinField,
  payouts: z.boolean(),
  autoMax: z.string(),
  hotAddress: z.string().nullable(),
  hotBalance: z.string().nullable(),
  coldAddress: z.string().nullable(),
  liabilities: z.string(),
  coldSharePct: z.number().nullable(),
  queue: z.object({
    pending: z.number().int(),
    approved: z.number().int(),
    broadcast: z.number().int(),
    failed: z.number().int(),
  }),
  lastError: z.string().nullable(),
});
export type OpsPayoutCoin = z.infer<typeof opsPayoutCoin>;
export const opsPayoutOverview = z.array(opsPayoutCoin);

/** A count and the sum of amounts (decimal string) of one coin's withdrawals in one state. */
const custodyQueueEntry = z.object({ count: z.number().int(), total: z.string() });

/**
 * GET /ops/api/v1/chain/custody (DECISIONS §18): per coin, where the platform's coins are. `hotAddresses`: the
 * addresses withdrawals pay from (empty for a coin paid from deposit outputs or by hand); `hotBalance`: what
 * they hold on chain (null without a node, or when the node did not answer: `lastError` says why);
 * `ledgerHoldings`: what the ledger says the platform holds on chain (the negated `chain:<COIN>` account, hot
 * and cold together); `coldBalance`: what COLD_ADDRESS_<COIN> holds on chain ("0" without a cold address, null
 * when no node reads it); `liabilities`: members' available + escrow + withdrawals not yet paid;
 * `coldSharePct`: cold / liabilities in percent with two decimals (a string, never a float; null when unknown
 * or nothing is owed); `coldShareBreach`: members are owed coins and the cold share is below
 * `coldShareMinPct` (COLD_SHARE_MIN_PCT) or cannot be read. `withdrawals`: external withdrawals per state.
 */
export const opsCustodyCoin = z.object({
  coinCode: coinField,
  paidOnChain: z.boolean(),
  hotAddresses: z.array(z.string()),
  hotBalance: z.string().nullable(),
  ledgerHoldings: z.string(),
  coldAddress: z.string().nullable(),
  coldBalance: z.string().nullable(),
  liabilities: z.string(),
  coldSharePct: z.string().nullable(),
  coldShareMinPct: z.number(),
  coldShareBreach: z.boolean(),
  withdrawals: z.object({
    pending: custodyQueueEntry,
    approved: custodyQueueEntry,
    broadcast: custodyQueueEntry,
    failed: custodyQueueEntry,
  }),
  lastError: z.string().nullable(),
});
export type OpsCustodyCoin = z.infer<typeof opsCustodyCoin>;
export const opsCustody = z.array(opsCustodyCoin);
