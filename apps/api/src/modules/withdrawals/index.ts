/*
 * The withdrawals module's front door (DECISIONS §18). Other modules import only this file.
 */

// Chain payers of BTC and TRX, the platform's outputs, the hot-wallet cap and the cold share (btctrx).
export { BtcPayer, type BtcPayerOptions, NotEnoughOnChain, RBF_SEQUENCE } from './btc-payer.ts';
export { bitcoinjsNetwork, dustLimit, selectCoins, selectReplacement } from './btc-select.ts';
export {
  btcCustodySource,
  type CustodyConfig,
  type CustodyRow,
  type CustodySource,
  custody,
  loadCustodyConfig,
  memberLiabilities,
  type SignFn,
  settleColdSweeps,
  sweepExcessToCold,
  trxCustodySource,
} from './cold.ts';
export type {
  BroadcastOutcome,
  ChainPayer,
  PayAttempt,
  PaymentState,
  PayRequest,
  PreparedPayment,
} from './payer.ts';
export {
  broadcastTrx,
  TRX_HOT_PATH,
  TrxPayer,
  type TrxPayerOptions,
  trxAddressAt,
  trxState,
} from './trx-payer.ts';
export { type PlatformOutput, releaseOutputs, unspentOutputs } from './utxos.ts';
