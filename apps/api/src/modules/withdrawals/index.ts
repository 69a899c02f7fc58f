/*
 * The withdrawals module's front door (DECISIONS §18): the payout workers (one per coin with a node and a
 * signer), the operator's withdrawal queue and what the ledger check reads of the chains. The ChainPayer
 * interface (payer.ts) is what a coin's payer implements.
 */
export { chainChecks } from './chain-check.ts';
export { withdrawalOpsRoutes } from './ops-routes.ts';
export type {
  BroadcastOutcome,
  ChainPayer,
  PayAttempt,
  PaymentState,
  PayRequest,
  PreparedPayment,
} from './payer.ts';
export { type CoinPayout, PAYOUT_FACTORIES } from './payers.ts';
export { createPayouts, type Payouts } from './payouts.ts';
export { explorerUrl } from './service.ts';
export type { PayoutSigner, SignRequest, SignResult } from './signer.ts';
