import { z } from 'zod';
import { DEFAULT_NODE_TIMEOUT_MS, type NodeEndpoint, nodeEndpoint, postJson } from './node-http.ts';
import { ChainNodeError } from './reader.ts';

/** A raw transaction is at most 400 kB (standardness); a node's answers to these calls are far smaller. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Bitcoin Core's RPC error codes the payer acts on (src/rpc/protocol.h). */
export const RPC = {
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25,
  VERIFY_REJECTED: -26,
  VERIFY_ALREADY_IN_CHAIN: -27,
} as const;

const hash64 = z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lower-case hex hash');
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const envelope = z.object({
  result: z.unknown(),
  error: z.object({ code: z.number().int(), message: z.string() }).nullable().optional(),
  id: z.union([z.number(), z.string(), z.null()]),
});

/** A node's refusal: its RPC error code and message. */
export class BtcRpcRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One JSON-RPC call's checked result; throws BtcRpcRefusal for a node error, ChainNodeError for the rest. */
type Call = <T>(method: string, params: unknown[], result: z.ZodType<T>) => Promise<T>;

/**
 * Bitcoin Core JSON-RPC calls the BTC payer needs (DECISIONS §18), at `url` (CHAIN_RPC_BTC, Basic auth from
 * its user part, one timeout per call). Every answer is checked against the documented shape; a node error
 * is thrown as BtcRpcRefusal (code and message) so the caller can tell "already known" from "refused".
 */
export function btcRpc(url: string, timeoutMs = DEFAULT_NODE_TIMEOUT_MS): Call {
  const endpoint: NodeEndpoint = nodeEndpoint(url);
  let nextId = 0;
  return async <T>(method: string, params: unknown[], result: z.ZodType<T>): Promise<T> => {
    const id = ++nextId;
    const what = `${method}(${params.map((p) => JSON.stringify(p).slice(0, 80)).join(', ')})`;
    const { status, json } = await postJson(
      'BTC',
      endpoint,
      { jsonrpc: '1.0', id, method, params },
      { timeoutMs, maxBytes: MAX_ANSWER_BYTES, what },
    );
    const parsed = envelope.safeParse(json);
    if (!parsed.success) throw new ChainNodeError('BTC', `${what}: HTTP ${status}, not a JSON-RPC answer`);
    if (parsed.data.id !== id) throw new ChainNodeError('BTC', `${what}: answer to another request`);
    const error = parsed.data.error;
    if (error) throw new BtcRpcRefusal(error.code, `${method}: ${error.message.slice(0, 200)}`);
    if (status !== 200) throw new ChainNodeError('BTC', `${what}: HTTP ${status}`);
    const value = result.safeParse(parsed.data.result);
    if (!value.success) {
      throw new ChainNodeError('BTC', `${what}: unexpected result (${value.error.issues[0]?.message})`);
    }
    return value.data;
  };
}

/** Where a transaction stands as the node sees it. */
export type BtcTxPlace =
  | { where: 'mempool' }
  | { where: 'block'; blockHash: string; confirmations: number }
  | { where: 'nowhere' };

/** The write side of a Bitcoin Core node for the payer: fee estimate, broadcast, where a transaction is. */
export interface BtcWriter {
  /** estimatesmartfee for `blocks`: the fee rate in sat/vB (rounded up), or null when the node has none. */
  estimateFeeRate(blocks: number): Promise<number | null>;
  /** sendrawtransaction; resolves with the txid the node computed. Throws BtcRpcRefusal when refused. */
  send(hex: string): Promise<string>;
  /**
   * Where `txid` is: in the mempool, in a block of the best chain (`knownBlock` first, the block it was last
   * seen in; else found through an unspent output `vouts` of it), or nowhere the node can tell.
   */
  place(txid: string, vouts: number, knownBlock: string | null): Promise<BtcTxPlace>;
  /** What `address` holds in confirmed outputs, satoshi (scantxoutset: no wallet needed). */
  balanceOf(address: string): Promise<bigint>;
  /**
   * What the output scripts (hex) hold together in confirmed outputs, satoshi: one scantxoutset of `raw()`
   * descriptors, which read the same on any network's node (a Litecoin regtest node takes no `bcrt1` address).
   */
  scriptsBalance(scripts: readonly string[]): Promise<bigint>;
}

const feeAnswer = z.object({
  feerate: z.number().positive().finite().optional(),
  errors: z.array(z.string()).optional(),
  blocks: count,
});
const txOut = z.object({ bestblock: hash64, confirmations: count }).loose().nullable();
const inBlock = z.object({
  txid: hash64,
  in_active_chain: z.boolean().optional(),
  confirmations: count.optional(),
});
const scanAnswer = z
  .object({ success: z.literal(true), total_amount: z.number().nonnegative().finite() })
  .loose();
const header = z.object({ hash: hash64, height: count, confirmations: z.number().int() }).loose();

/** The payer's BtcWriter over `btcRpc(url)`. */
export function btcWriter(url: string, timeoutMs?: number): BtcWriter {
  const call = btcRpc(url, timeoutMs);
  const refused = (err: unknown, ...codes: number[]) =>
    err instanceof BtcRpcRefusal && codes.includes(err.code);

  async function inChain(txid: string, blockHash: string): Promise<BtcTxPlace | null> {
    try {
      const r = await call('getrawtransaction', [txid, true, blockHash], inBlock);
      if (r.txid !== txid)
        throw new ChainNodeError('BTC', `getrawtransaction answered ${r.txid} for ${txid}`);
      if (r.in_active_chain === false || !r.confirmations) return null;
      return { where: 'block', blockHash, confirmations: r.confirmations };
    } catch (err) {
      if (refused(err, RPC.INVALID_ADDRESS_OR_KEY, RPC.INVALID_PARAMETER)) return null;
      throw err;
    }
  }

  /** The block of a confirmed `txid` through one of its unspent outputs (no transaction index needed). */
  async function blockOf(txid: string, vouts: number): Promise<string | null> {
    for (let vout = 0; vout < vouts; vout++) {
      const out = await call('gettxout', [txid, vout, false], txOut);
      if (!out || out.confirmations < 1) continue;
      const tip = await call('getblockheader', [out.bestblock, true], header);
      const h = tip.height - out.confirmations + 1;
      if (h < 0)
        throw new ChainNodeError('BTC', `gettxout: ${out.confirmations} confirmations above the tip`);
      return call('getblockhash', [h], hash64);
    }
    return null;
  }

  /** scantxoutset over `descriptors`: their confirmed outputs' total, satoshi. */
  async function scan(descriptors: string[]): Promise<bigint> {
    const r = await call('scantxoutset', ['start', descriptors], scanAnswer);
    return BigInt(r.total_amount.toFixed(8).replace('.', ''));
  }

  return {
    async estimateFeeRate(blocks) {
      const r = await call('estimatesmartfee', [blocks], feeAnswer);
      if (r.feerate === undefined) return null;
      // BTC per 1000 vB to sat/vB: 1e8 / 1e3; the node prints 8 decimals, so toFixed(8) is its exact text.
      const satPerKvB = BigInt(r.feerate.toFixed(8).replace('.', ''));
      return Number((satPerKvB + 999n) / 1000n);
    },
    send: (hex) => call('sendrawtransaction', [hex], hash64),
    balanceOf: (address) => scan([`addr(${address})`]),
    scriptsBalance: async (scripts) => (scripts.length === 0 ? 0n : scan(scripts.map((h) => `raw(${h})`))),
    async place(txid, vouts, knownBlock) {
      if (knownBlock) {
        const there = await inChain(txid, knownBlock);
        if (there) return there;
      }
      try {
        await call('getmempoolentry', [txid], z.object({ vsize: count }).loose());
        return { where: 'mempool' };
      } catch (err) {
        if (!refused(err, RPC.INVALID_ADDRESS_OR_KEY)) throw err;
      }
      const block = await blockOf(txid, vouts);
      return (block && (await inChain(txid, block))) || { where: 'nowhere' };
    },
  };
}
