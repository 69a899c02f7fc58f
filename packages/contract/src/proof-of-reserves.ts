import { z } from 'zod';
import { coinField, qtyField } from './fields.ts';

/**
 * Proof of reserves (DECISIONS §20): what anyone may see of a coin's latest snapshot, and a member's proof.
 * Quantities are decimal strings of the coin (8 decimals at most); proof sums and balances are decimal strings of
 * base units (10^-8 coin), hashes and salts lower-case hex, exactly as the Merkle-sum tree of packages/reserves
 * encodes them.
 */

/**
 * Where a coin's reserves figure comes from: the nodes of §17, an operator's declaration (a coin without a node),
 * UNAVAILABLE when the coin has a node that failed or answered something refused at the snapshot (never read as
 * zero, never replaced by the declared figure), or NONE (nothing known yet).
 */
export const RESERVES_SOURCES = ['NODE', 'DECLARED', 'UNAVAILABLE', 'NONE'] as const;
export type ReservesSource = (typeof RESERVES_SOURCES)[number];

/**
 * One platform address counted in the reserves, its balance read from the node (coin units), with the signer's
 * control signature over `message` (packages/reserves controlMessage: coin, address, the snapshot's root hash)
 * when it made one; COLD addresses carry none (their key is offline, DECISIONS §18).
 */
export const reserveAddress = z.object({
  address: z.string(),
  role: z.enum(['DEPOSIT', 'HOT', 'COLD', 'PLATFORM']),
  balance: z.string(),
  signature: z.string().nullable(),
  scheme: z.string().nullable(),
  message: z.string().nullable(),
});

/** GET /api/v1/reserves: per coin the latest snapshot (coins never snapshotted are left out). */
export const coinReserves = z.object({
  coinCode: coinField,
  snapshotAt: z.string(),
  /** Every member's available + escrow + pending withdrawals, the root's sum in coin units. */
  liabilities: z.string(),
  /** What the platform's addresses hold (null when nothing is known: source NONE or UNAVAILABLE). */
  reserves: z.string().nullable(),
  reservesSource: z.enum(RESERVES_SOURCES),
  /** reserves / liabilities in percent with 2 decimals, a decimal string ("100.00" when both are 0). */
  ratioPct: z.string().nullable(),
  rootHash: z.string(),
  memberCount: z.number().int(),
  addresses: z.array(reserveAddress),
});
export type CoinReserves = z.infer<typeof coinReserves>;
export const reservesList = z.array(coinReserves);

/** GET /api/v1/reserves/proof?coinCode=: which coin's latest snapshot. */
export const reserveProofQuery = z.object({
  coinCode: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), coinField),
});

const hex = z.string().regex(/^[0-9a-f]+$/);
const units = z.string().regex(/^(0|[1-9][0-9]*)$/);

/** The member's proof: the JSON `p2p-verify-reserves` reads (DECISIONS §20). */
export const reserveProof = z.object({
  coinCode: coinField,
  snapshotAt: z.string(),
  rootHash: hex,
  rootSum: units,
  leaf: z.object({ index: z.number().int().min(0), salt: hex, balance: units }),
  path: z.array(z.object({ hash: hex, sum: units })),
});
export type ReserveProofView = z.infer<typeof reserveProof>;

/** POST /ops/api/v1/reserves/snapshot: one coin, or every coin when left out. */
export const reserveSnapshotBody = z.object({ coinCode: coinField.optional() }).default({});

/** POST /ops/api/v1/reserves/declare: an operator's figure for a coin whose addresses no node reads. */
export const reserveDeclareBody = z.object({ coinCode: coinField, amount: qtyField() });
export const reserveSnapshotResult = z.array(coinReserves);
