import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { nodeEndpoint } from './node-http.ts';
import { ChainNodeError } from './reader.ts';

/**
 * The node calls of paying on Ethereum (DECISIONS §18), next to the deposit reader: balances, the next nonce,
 * the fee from the node's fee history, gas estimates, sending a signed transaction and reading where it stands.
 * One viem public client over JSON-RPC at CHAIN_RPC_ETH (Basic auth from the URL's user part), one timeout per
 * call, no retries (the payout worker backs off). Amounts are wei as bigint. Every failure to reach or
 * understand the node throws ChainNodeError; a node that refuses a transaction answers a SendOutcome instead.
 */

/** The highest fee per gas the writer accepts from the node's fee history (1000 gwei): beyond it, a broken node. */
export const MAX_FEE_PER_GAS = 1_000n * 10n ** 9n;
/** The tip offered when the fee history has no rewards (a quiet chain, a dev node): 1 gwei. */
const DEFAULT_PRIORITY_FEE = 10n ** 9n;

/** EIP-1559 fees for one transaction, wei per gas. */
export interface EthFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export type SendOutcome = { kind: 'ACCEPTED' } | { kind: 'KNOWN' } | { kind: 'REJECTED'; reason: string };

/** Where a transaction stands on the node. */
export type EthTxState =
  | { kind: 'MINED'; blockNumber: bigint; tip: bigint; success: boolean; feeWei: bigint }
  | { kind: 'PENDING' }
  | { kind: 'MISSING' };

export interface EthWriter {
  chainId(): Promise<number>;
  balance(address: string): Promise<bigint>;
  /** The count of transactions `address` sent, pending ones included: the next nonce as the node sees it. */
  nonce(address: string): Promise<number>;
  /** Fees from eth_feeHistory (the next block's base fee twice plus the median tip), checked against MAX_FEE_PER_GAS. */
  fees(): Promise<EthFees>;
  estimateGas(from: string, to: string, valueWei: bigint): Promise<bigint>;
  send(signedTx: string): Promise<SendOutcome>;
  state(txid: string): Promise<EthTxState>;
}

/** Node answers that mean "this very transaction is there already": sending it again paid nothing twice. */
const KNOWN = /already known|already imported|known transaction|already exists/i;

function nodeError(what: string, err: unknown): ChainNodeError {
  const e = err as { shortMessage?: string; message?: string };
  const why = (e?.shortMessage ?? e?.message ?? String(err)).split('\n')[0]?.slice(0, 200) ?? 'failed';
  return new ChainNodeError('ETH', `${what}: ${why}`, { cause: err });
}

/** Whether viem's error is the node answering an error (as opposed to the node not answering at all). */
function isRpcRefusal(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 10; i++) {
    if (typeof e.code === 'number' && e.code < 0) return true;
    e = e.cause as typeof e;
  }
  return false;
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw nodeError(what, err);
  }
}

/** Fees from the last blocks' history: maxFee = 2 × next base fee + tip (the median reward, else 1 gwei). */
async function feesOf(client: PublicClient): Promise<EthFees> {
  const h = await call('eth_feeHistory', () =>
    client.getFeeHistory({ blockCount: 5, rewardPercentiles: [50], blockTag: 'latest' }),
  );
  const nextBase = h.baseFeePerGas.at(-1);
  if (nextBase === undefined || nextBase < 0n) throw new ChainNodeError('ETH', 'eth_feeHistory: no base fee');
  const rewards = (h.reward ?? []).map((r) => r[0] ?? 0n).filter((r) => r > 0n);
  rewards.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const tip = rewards[Math.floor(rewards.length / 2)] ?? DEFAULT_PRIORITY_FEE;
  const maxFeePerGas = 2n * nextBase + tip;
  if (maxFeePerGas > MAX_FEE_PER_GAS || tip > MAX_FEE_PER_GAS) {
    throw new ChainNodeError(
      'ETH',
      `eth_feeHistory: fee ${maxFeePerGas} wei/gas is above the accepted maximum`,
    );
  }
  return { maxFeePerGas, maxPriorityFeePerGas: tip };
}

async function sendRaw(client: PublicClient, signedTx: string): Promise<SendOutcome> {
  if (!/^0x[0-9a-fA-F]+$/.test(signedTx)) return { kind: 'REJECTED', reason: 'not a serialized transaction' };
  try {
    await client.sendRawTransaction({ serializedTransaction: signedTx as Hex });
    return { kind: 'ACCEPTED' };
  } catch (err) {
    if (!isRpcRefusal(err)) throw nodeError('eth_sendRawTransaction', err);
    const why = nodeError('eth_sendRawTransaction', err).message;
    if (KNOWN.test(why)) return { kind: 'KNOWN' };
    // "nonce too low" may be this very transaction, mined already: only its own receipt says so.
    const own = await stateOf(client, keccak256(signedTx as Hex));
    if (own.kind !== 'MISSING') return { kind: 'KNOWN' };
    return { kind: 'REJECTED', reason: why.replace(/^ETH node: /, '') };
  }
}

async function stateOf(client: PublicClient, txid: string): Promise<EthTxState> {
  const hash = txid as Hex;
  try {
    const r = await client.getTransactionReceipt({ hash });
    const tip = await call('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
    return {
      kind: 'MINED',
      blockNumber: r.blockNumber,
      tip,
      success: r.status === 'success',
      feeWei: r.gasUsed * r.effectiveGasPrice,
    };
  } catch (err) {
    if (!(err instanceof TransactionReceiptNotFoundError)) throw nodeError('eth_getTransactionReceipt', err);
  }
  try {
    await client.getTransaction({ hash });
    return { kind: 'PENDING' };
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return { kind: 'MISSING' };
    throw nodeError('eth_getTransactionByHash', err);
  }
}

/** The writer of the node at `url` (CHAIN_RPC_ETH), each call bounded by `timeoutMs`. */
export function ethWriter(opts: { url: string; timeoutMs: number }): EthWriter {
  const endpoint = nodeEndpoint(opts.url);
  const client = createPublicClient({
    transport: http(endpoint.url, {
      timeout: opts.timeoutMs,
      retryCount: 0,
      fetchOptions: { headers: endpoint.headers, redirect: 'error' },
    }),
  }) as PublicClient;
  return {
    chainId: () => call('eth_chainId', () => client.getChainId()),
    balance: (address) =>
      call('eth_getBalance', () => client.getBalance({ address: address as Address, blockTag: 'pending' })),
    nonce: (address) =>
      call('eth_getTransactionCount', () =>
        client.getTransactionCount({ address: address as Address, blockTag: 'pending' }),
      ),
    fees: () => feesOf(client),
    estimateGas: (from, to, value) =>
      call('eth_estimateGas', () =>
        client.estimateGas({ account: from as Address, to: to as Address, value }),
      ),
    send: (signedTx) => sendRaw(client, signedTx),
    state: (txid) => stateOf(client, txid),
  };
}
