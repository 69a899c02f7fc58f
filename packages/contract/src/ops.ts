import { z } from 'zod';
import { COINS, COUNTRY_CODES, MEMBER_STATUSES, ROLES, WALLET_STATUSES } from './enums.ts';
import { FIELD_CODES as F } from './errors.ts';
import { coinField, cursorField } from './fields.ts';
import { LIMITS } from './limits.ts';

/**
 * Schemas of the operator API (DECISIONS §8, §10) that belong to the ops module: members, suspension,
 * the audit log, the ledger check and the console home summary. Listing, order, deposit and withdrawal
 * operator calls live with their modules' contracts.
 */

/** Page size of operator lists: default 20, at most 50 (as the member lists, SPEC §9). */
export const opsPageSize = z.coerce
  .number(F.INVALID_TYPE)
  .int(F.INVALID_FORMAT)
  .min(1, F.INVALID_FORMAT)
  .max(LIMITS.listPageSizeMax, F.TOO_LONG)
  .default(LIMITS.listPageSize);

/** A reason an operator gives for an action; stored in the audit log. */
export const opsReasonField = z.string(F.REQUIRED).trim().min(1, F.REQUIRED).max(500, F.TOO_LONG);

/** GET /ops/api/v1/members query: `q` matches loginId, nickname, name or phone (substring, case-insensitive). */
export const opsMembersQuery = z.object({
  q: z.string().trim().max(64, F.TOO_LONG).optional(),
  size: opsPageSize,
  cursor: cursorField.optional(),
});

export const opsMember = z.object({
  id: z.number().int(),
  loginId: z.string(),
  nickname: z.string(),
  name: z.string(),
  countryCode: z.enum(COUNTRY_CODES),
  phoneE164: z.string(),
  role: z.enum(ROLES),
  status: z.enum(MEMBER_STATUSES),
  suspendedReason: z.string().nullable(),
  createdAt: z.string(),
});
export type OpsMember = z.infer<typeof opsMember>;

/**
 * GET /ops/api/v1/members/{id}: one member as an operator sees it when resolving a case: the list fields,
 * bank details, wallets with available and escrow balances, and how much live trade they have.
 */
export const opsMemberDetail = opsMember.extend({
  bankName: z.string().nullable(),
  accountNo: z.string().nullable(),
  // The shape of the member API's wallet (wallets.ts), declared here because wallets.ts imports this file.
  wallets: z.array(
    z.object({
      id: z.number().int(),
      coinCode: z.enum(COINS),
      balance: z.string(),
      escrowBalance: z.string(),
      address: z.string(),
      status: z.enum(WALLET_STATUSES),
      createdAt: z.string(),
    }),
  ),
  activeListings: z.number().int(),
  requestedOrdersAsBuyer: z.number().int(),
  requestedOrdersAsSeller: z.number().int(),
});
export type OpsMemberDetail = z.infer<typeof opsMemberDetail>;

/** POST /ops/api/v1/members/{id}/suspend body. */
export const opsSuspendBody = z.object({ reason: opsReasonField });
/** POST /ops/api/v1/members/{id}/unsuspend body (a reason is optional here). */
export const opsUnsuspendBody = z.object({ reason: opsReasonField.optional() }).nullish();

/** GET /ops/api/v1/audit-log query: newest first, keyset cursor; optional filter on the target. */
export const opsAuditQuery = z.object({
  size: opsPageSize,
  cursor: cursorField.optional(),
  targetType: z.enum(['listing', 'order', 'withdrawal', 'deposit', 'member', 'chain_payment']).optional(),
  targetId: z.string().trim().max(64, F.TOO_LONG).optional(),
});

export const opsAuditEntry = z.object({
  id: z.number().int(),
  operatorId: z.number().int(),
  operatorLoginId: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  reason: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type OpsAuditEntry = z.infer<typeof opsAuditEntry>;

/** GET /ops/api/v1/ledger/check answer: every invariant violation found (DECISIONS §4). */
export const opsLedgerCheck = z.object({
  /** No open problem: none found since the last full pass began (issue 27: the stored result, never a scan). */
  ok: z.boolean(),
  problems: z.array(z.string()),
  /** When the last pass (incremental or full) ended; null before the job first ran. */
  checkedAt: z.string().nullable(),
  /** When the last full pass ended; null before the first. */
  lastFullAt: z.string().nullable(),
  /** Postings with an id up to this one are verified. */
  verifiedThrough: z.number().int(),
  /** What the verified part holds (accounts as of the last full pass). */
  counts: z.object({ accounts: z.number().int(), entries: z.number().int(), postings: z.number().int() }),
  /** An operator asked for a full pass that has not started yet. */
  fullRequested: z.boolean(),
  /** The full pass running now: postings (0, through] to verify, done up to position; progress 0..1. */
  fullPass: z
    .object({
      startedAt: z.string().nullable(),
      through: z.number().int(),
      position: z.number().int(),
      progress: z.number(),
    })
    .nullable(),
  /**
   * DECISIONS §18: per coin with a node, what the ledger says the platform holds on chain (minus `chain:<COIN>`)
   * against what its addresses hold (hot + deposit addresses), coin decimal strings; `difference` = onChain -
   * ledger (deposits not yet credited, dust, unposted fees); null with `error` when the node did not answer.
   */
  chains: z
    .array(
      z.object({
        coinCode: coinField,
        ledger: z.string(),
        onChain: z.string().nullable(),
        difference: z.string().nullable(),
        error: z.string().nullable(),
      }),
    )
    .optional(),
});

/** GET /ops/api/v1/summary: what waits for an operator, for the console home. */
export const opsSummary = z.object({
  pendingListings: z.number().int(),
  pendingWithdrawals: z.number().int(),
  requestedOrders: z.number().int(),
  /** Orders in DISPUTED: the dispute queue's length (DECISIONS §11). */
  disputedOrders: z.number().int(),
  /** Every member, closed ones included until purged (a kept count since issue 27: exact at any size). */
  members: z.number().int(),
  suspendedMembers: z.number().int(),
});
export type OpsSummary = z.infer<typeof opsSummary>;

/** GET /ops/api/v1/totp: the signed-in operator's second factor (DECISIONS §13). */
export const opsTotpStatus = z.object({
  /** True once a code confirmed the secret: sign-in then needs a code. */
  enrolled: z.boolean(),
  /** A secret was issued by /totp/enroll and waits for /totp/confirm. */
  pending: z.boolean(),
  confirmedAt: z.string().nullable(),
});
export type OpsTotpStatus = z.infer<typeof opsTotpStatus>;

/** POST /ops/api/v1/totp/enroll answer: the new base32 secret and its otpauth:// URL (for the QR). */
export const opsTotpEnrollment = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type OpsTotpEnrollment = z.infer<typeof opsTotpEnrollment>;

/** POST /ops/api/v1/totp/confirm body: a code from the authenticator app. */
export const opsTotpConfirmBody = z.object({ code: z.string(F.REQUIRED).regex(/^\d{6}$/, F.INVALID_FORMAT) });
