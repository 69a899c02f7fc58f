import type { Coin } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';

/**
 * One coin's way of paying withdrawals from the platform's own addresses (DECISIONS §18). The withdrawal pipeline
 * (modules/withdrawals) owns the states and calls a payer; the payer owns how coins leave on its chain.
 * Amounts are ledger base units (10^-8 coin) as bigint. No private key here: `prepare` returns an intent the
 * signer (apps/signer) turns into a signed transaction.
 */
export interface PayRequest {
  /** The signer's requestId: `withdrawal:<id>`, `withdrawal:<id>:r<n>` for the n-th replacement. */
  requestId: string;
  withdrawalId: number;
  address: string;
  destTag: number | null;
  units: bigint;
  /** Set when this is a replacement of a FAILED attempt: the previous attempt's stored reservation (inputs/nonce). */
  replaces: PayAttempt | null;
}

/** What a payer reserved for one attempt (stored as JSON with the attempt, so a replacement spends the same). */
export interface PayAttempt {
  requestId: string;
  /** Chain-specific: BTC {inputs: [{txid, vout}], feeRate}; ETH/TRX {fromPath, nonce}; XRP {sequence}. */
  reservation: Record<string, unknown>;
}

export interface PreparedPayment {
  /** The body of POST /v1/sign's `intent` for this coin (SIGNER-PROTOCOL). */
  intent: Record<string, unknown>;
  reservation: Record<string, unknown>;
}

export type BroadcastOutcome =
  | { kind: 'ACCEPTED' }
  /** The node already has it (mempool or chain): the same as accepted, never a second payment. */
  | { kind: 'KNOWN' }
  /** The node refused it for good (bad signature, inputs spent by another tx, nonce too low): FAILED. */
  | { kind: 'REJECTED'; reason: string };

export type PaymentState =
  | { kind: 'CONFIRMED'; confirmations: number; feeUnits: bigint }
  | { kind: 'PENDING'; confirmations: number }
  /** Not in mempool nor chain (dropped, or a conflicting tx won): FAILED after the coin's grace. */
  | { kind: 'MISSING' }
  /**
   * The chain says it will never pay (XRP: validated with a tec result, or past its LastLedgerSequence): FAILED
   * now. `feeUnits`: what the chain took for it all the same (a validated tec burns its fee), posted as the
   * platform's network fee.
   */
  | { kind: 'FAILED'; reason: string; feeUnits?: bigint };

export interface ChainPayer {
  readonly coin: Coin;
  /** Picks inputs / nonce / sequence inside `tx` (locks what it reserves so no other attempt takes it). */
  prepare(tx: Tx, req: PayRequest): Promise<PreparedPayment>;
  /** Sends a signed transaction; idempotent: sending the same bytes again is KNOWN. Throws ChainNodeError when the node is down. */
  broadcast(signedTx: string, txid: string): Promise<BroadcastOutcome>;
  /** Where the transaction stands on the node. */
  state(txid: string): Promise<PaymentState>;
}
