/** One payment a signed transaction makes: where to (null when the script has no address) and how much. */
export interface Output {
  address: string | null;
  /** Base units (satoshi, wei, drop, sun). */
  units: bigint;
  /** Proven the signer's own by the chain signer itself (BTC change with a verified bip32Derivation). */
  own?: boolean;
}

/** What a chain signer returns: the signed transaction, read back for the limits (never trusted from the caller). */
export interface SignedTx {
  txid: string;
  signedTx: string;
  outputs: Output[];
  /** The network fee in base units (ETH: the most it can cost, gas * maxFeePerGas). */
  feeUnits: bigint;
}

/** An intent that cannot be signed as given (422 SIGNER_INTENT_INVALID). */
export class IntentError extends Error {}
