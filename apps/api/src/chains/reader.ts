import type { Coin } from '@p2p/contract';

/**
 * One payment found in a block (DECISIONS §17): value that the chain moved to `to` in transaction `txid`.
 * `outputIndex` makes (coin, txid, outputIndex) unique and stable however often the block is read: the BTC
 * output index (vout), the position of the call frame in a depth-first walk of an ETH transaction's call tree
 * (0 = the top-level call), the XRP / TRX transaction's 0 (one payment per transaction).
 */
export interface ChainPayment {
  txid: string;
  outputIndex: number;
  /** The recipient in the canonical spelling of the coin's adapter (`normalizeAddress`), on the app's network. */
  to: string;
  /** XRP destination tag (0..2^32-1), null when absent or for another coin. */
  destinationTag: number | null;
  /**
   * The amount delivered, in the chain's smallest unit (satoshi, wei, drop, sun): for XRP the metadata's
   * `delivered_amount`, never `Amount` (partial payments).
   */
  amount: bigint;
}

/** A block (an XRP validated ledger) with the payments in it that succeeded on chain. */
export interface ChainBlock {
  height: number;
  hash: string;
  parentHash: string;
  payments: ChainPayment[];
}

/**
 * What the deposit watcher needs from a node (DECISIONS §17). One reader per coin, made from
 * `CHAIN_RPC_<COIN>`. Every call has a timeout and throws `ChainNodeError` when the node is down, slow, answers
 * an error or answers something malformed; nothing a node says is trusted unchecked (hashes are hex of the
 * right length, heights integers, amounts non-negative integers).
 */
export interface ChainReader {
  readonly coin: Coin;
  /** The height of the newest block the node has (XRP: the newest validated ledger index). */
  tipHeight(): Promise<number>;
  /** The hash of the block at `height` on the node's best chain, or null above the tip. */
  blockHash(height: number): Promise<string | null>;
  /** The block at `height` with its successful payments (every recipient: the watcher filters). */
  block(height: number): Promise<ChainBlock>;
}

/** A node that failed to answer, or answered something we refuse to believe. */
export class ChainNodeError extends Error {
  constructor(
    readonly coin: Coin,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${coin} node: ${message}`, options);
    this.name = 'ChainNodeError';
  }
}

/**
 * How a reader is made (one factory per coin: `btcReader`, `ethReader`, `xrpReader`, `trxReader` in
 * `chains/<coin>-reader.ts`): the node's URL from `CHAIN_RPC_<COIN>` (credentials in its user part go as Basic
 * auth), the app's network (addresses are reported in its spelling) and the per-call timeout.
 */
export interface ReaderOptions {
  url: string;
  network: 'mainnet' | 'testnet' | 'regtest';
  /** Per node call; default 10_000 ms. */
  timeoutMs?: number;
  /**
   * Where a reader reports what is no error but the operator should know (e.g. an ETH node without call
   * traces); the app's pino logger fits. Nothing is logged when absent.
   */
  log?: { warn(obj: object, msg: string): void };
}
