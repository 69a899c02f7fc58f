import { z } from 'zod';
import { pageOf } from './envelope.ts';
import { FIELD_CODES as F } from './errors.ts';
import { coinField, cursorField, idParam } from './fields.ts';
import { opsPageSize, opsReasonField } from './ops.ts';

/**
 * The operator's view of the chain watchers (DECISIONS §17): node status per coin and the queue of payments
 * that match no member. Heights are block numbers (XRP: validated ledger indexes); amounts decimal strings.
 */

/**
 * GET /ops/api/v1/chain/status: one entry per coin of the registry. `configured` = this API has a node for it
 * (CHAIN_RPC_<COIN>); the rest is what the active watcher last stored (null before its first scan):
 * `scannedHeight` the last block applied, `nodeHeight` the node's tip, `lagBlocks` their difference,
 * `lastScanAt` when a block was last applied or the tip last checked, `lastError` the newest node or scan
 * failure (kept after recovery, with `lastErrorAt`; `nodeUp` says whether the last call answered).
 */
export const chainStatus = z.object({
  coinCode: coinField,
  configured: z.boolean(),
  scannedHeight: z.number().int().nullable(),
  nodeHeight: z.number().int().nullable(),
  lagBlocks: z.number().int().nullable(),
  lastScanAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** Whether the node answered the watcher's last call; null before the first. */
  nodeUp: z.boolean().nullable(),
  /** CHAIN_CONFIRMATIONS_<COIN>: confirmations a new deposit needs before it is credited. */
  requiredConfirmations: z.number().int(),
  /** Whether some API instance holds the coin's watcher lease right now. */
  watcherActive: z.boolean(),
});
export type ChainStatus = z.infer<typeof chainStatus>;
export const chainStatusList = z.array(chainStatus);

/**
 * A payment to the platform that matches no member (XRP without a destination tag or with an unknown one).
 * UNMATCHED until an operator assigns it to a member (ASSIGNED, credited once, `transferId` = the deposit) or
 * records that it was sent back (RETURNED, `returnTxid`).
 */
export const UNMATCHED_STATUSES = ['UNMATCHED', 'ASSIGNED', 'RETURNED'] as const;
export type UnmatchedStatus = (typeof UNMATCHED_STATUSES)[number];

export const unmatchedPayment = z.object({
  id: z.number().int(),
  coinCode: coinField,
  txid: z.string(),
  outputIndex: z.number().int(),
  /** The platform address it was paid to. */
  address: z.string(),
  destinationTag: z.number().int().nullable(),
  amount: z.string(),
  blockHeight: z.number().int(),
  /** Blocks on top of (and including) its own, as the watcher has scanned; assignable from requiredConfirmations. */
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  status: z.enum(UNMATCHED_STATUSES),
  memberId: z.number().int().nullable(),
  transferId: z.number().int().nullable(),
  returnTxid: z.string().nullable(),
  reason: z.string().nullable(),
  decidedBy: z.number().int().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type UnmatchedPayment = z.infer<typeof unmatchedPayment>;
export const unmatchedPaymentPage = pageOf(unmatchedPayment);

/** GET /ops/api/v1/chain/unmatched query: by status (default UNMATCHED), oldest first. */
export const unmatchedQuery = z.object({
  status: z.enum(UNMATCHED_STATUSES, F.INVALID_FORMAT).default('UNMATCHED'),
  coinCode: coinField.optional(),
  size: opsPageSize,
  cursor: cursorField.optional(),
});

/** POST /ops/api/v1/chain/unmatched/{id}/assign: credit it to this member's wallet of its coin. */
export const unmatchedAssignBody = z.object({ memberId: idParam, reason: opsReasonField });
export type UnmatchedAssignBody = z.infer<typeof unmatchedAssignBody>;

/** POST /ops/api/v1/chain/unmatched/{id}/return: the payment was sent back in chain transaction `txid`. */
export const unmatchedReturnBody = z.object({
  txid: z.string(F.TXID_REQUIRED).trim().min(1, F.TXID_REQUIRED).max(128, F.TOO_LONG),
  reason: opsReasonField,
});
export type UnmatchedReturnBody = z.infer<typeof unmatchedReturnBody>;
