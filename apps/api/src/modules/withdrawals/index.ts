/*
 * The withdrawals module's front door (DECISIONS §18): the payout workers (one per coin with a node and a
 * signer), the operator's withdrawal queue and what the ledger check reads of the chains. The ChainPayer
 * interface (payer.ts) is what a coin's payer implements.
 */

// Chain payers of BTC and TRX, the platform's outputs, the hot-wallet cap and the cold share (btctrx).
export { BtcPayer, type BtcPayerOptions, NotEnoughOnChain, RBF_SEQUENCE } from './btc-payer.ts';
export { bitcoinjsNetwork, dustLimit, selectCoins, selectReplacement } from './btc-select.ts';
export { chainChecks } from './chain-check.ts';
export {
  COLD_NONCE_COINS,
  type ColdSweepDeps,
  type SignFn,
  settleColdSweeps,
  sweepExcessToCold,
} from './cold-sweeps.ts';
export { feeWeiToUnits } from './eth-payer.ts';
export { withdrawalOpsRoutes } from './ops-routes.ts';
export type {
  BroadcastOutcome,
  ChainPayer,
  PayAttempt,
  PaymentState,
  PayRequest,
  PreparedPayment,
} from './payer.ts';
export { type CoinPayout, PAYOUT_FACTORIES, signerFingerprint } from './payers.ts';
export { createPayouts, type Payouts } from './payouts.ts';
export {
  btcCustodySource,
  type CustodyConfig,
  type CustodyRow,
  type CustodySource,
  custody,
  loadCustodyConfig,
  memberLiabilities,
  trxCustodySource,
} from './repo-cold.ts';
export { type PlatformOutput, releaseOutputs, unspentOutputs } from './repo-utxos.ts';
export { explorerUrl } from './service.ts';
export { type PayoutSigner, remotePayoutSigner, type SignRequest, type SignResult } from './signer.ts';
export {
  broadcastTrx,
  TRX_HOT_PATH,
  TrxPayer,
  type TrxPayerOptions,
  trxAddressAt,
  trxState,
} from './trx-payer.ts';
export { trxSweeps, trxSweepValue } from './trx-sweeps.ts';
export { XRP_ACCOUNT_PATH, XrpAccountShort, XrpPayer, type XrpPayerOptions } from './xrp-payer.ts';
