import { Address, OutScript } from '@scure/btc-signer';
import { Block } from 'bitcoinjs-lib';
import { z } from 'zod';
import type { ChainNetwork } from './adapter.ts';
import { btc, btcNetwork } from './btc.ts';
import { DEFAULT_NODE_TIMEOUT_MS, nodeEndpoint, postJson } from './node-http.ts';
import {
  type ChainBlock,
  ChainNodeError,
  type ChainPayment,
  type ChainReader,
  type ReaderOptions,
} from './reader.ts';

/** 21 million BTC in satoshi: no output may carry more (Bitcoin Core's MoneyRange). */
const MAX_MONEY = 21_000_000n * 100_000_000n;
/** A block is at most 4 MB (weight 4M); its hex in a JSON answer is twice that. 32 MiB leaves room. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Bitcoin Core's RPC_INVALID_PARAMETER: getblockhash's "Block height out of range". */
const RPC_INVALID_PARAMETER = -8;

const hash64 = z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lower-case hex hash');
const height = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const rawBlock = z.string().regex(/^(?:[0-9a-f]{2})+$/, 'hex bytes');

/** Bitcoin Core's JSON-RPC 1.0 envelope (result, error, id). */
const envelope = z.object({
  result: z.unknown(),
  error: z.object({ code: z.number().int(), message: z.string() }).nullable().optional(),
  id: z.union([z.number(), z.string(), z.null()]),
});

/**
 * The deposit watcher's reader of a Bitcoin Core node (DECISIONS §17): `getblockcount`, `getblockhash` and
 * `getblock <hash> 0` over JSON-RPC at `opts.url` (Basic auth from the URL's user part, one timeout per call).
 *
 * Blocks are read as raw bytes and decoded with bitcoinjs-lib, never from the node's JSON: amounts are the
 * serialized 64-bit satoshi values (exact, no float), and the block is checked against the hash asked for
 * (header hash, merkle root, witness commitment, no trailing bytes), so a node cannot add, drop or alter a
 * payment without the block failing to decode. Each output's recipient is its scriptPubKey encoded as an
 * address of the app's network (@scure/btc-signer: P2PKH, P2SH, P2WPKH, P2WSH, P2TR), so a Litecoin regtest
 * node serves `bcrt1` addresses; outputs without an address (OP_RETURN, bare multisig, P2PK, unknown
 * witness versions) and of zero value are left out, and so are coinbase outputs (spendable only after 100
 * blocks and gone for good in a reorg, so never a deposit).
 *
 * Throws ChainNodeError for anything the node fails to answer or answers wrongly; RangeError for a height
 * that is not a non-negative safe integer.
 */
export function btcReader(opts: ReaderOptions): ChainReader {
  const endpoint = nodeEndpoint(opts.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  let nextId = 0;

  /** One JSON-RPC call: the checked result, or the node's error object when `allowError` says it is expected. */
  async function call<T>(
    method: string,
    params: unknown[],
    result: z.ZodType<T>,
    allowError?: (code: number) => boolean,
  ): Promise<{ ok: true; value: T } | { ok: false; code: number }> {
    const id = ++nextId;
    const what = `${method}(${params.map((p) => JSON.stringify(p)).join(', ')})`;
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
    if (error) {
      if (allowError?.(error.code)) return { ok: false, code: error.code };
      throw new ChainNodeError('BTC', `${what}: error ${error.code}: ${error.message.slice(0, 200)}`);
    }
    if (status !== 200) throw new ChainNodeError('BTC', `${what}: HTTP ${status}`);
    const value = result.safeParse(parsed.data.result);
    if (!value.success) {
      throw new ChainNodeError('BTC', `${what}: unexpected result (${value.error.issues[0]?.message})`);
    }
    return { ok: true, value: value.data };
  }

  async function blockHash(h: number): Promise<string | null> {
    checkHeight(h);
    const r = await call('getblockhash', [h], hash64, (code) => code === RPC_INVALID_PARAMETER);
    return r.ok ? r.value : null;
  }

  return {
    coin: 'BTC',
    async tipHeight() {
      const r = await call('getblockcount', [], height);
      if (!r.ok) throw new ChainNodeError('BTC', 'getblockcount: no answer');
      return r.value;
    },
    blockHash,
    async block(h) {
      const hash = await blockHash(h);
      if (hash === null) throw new ChainNodeError('BTC', `no block at height ${h} (above the tip)`);
      const r = await call('getblock', [hash, 0], rawBlock);
      if (!r.ok) throw new ChainNodeError('BTC', 'getblock: no answer');
      return decodeBlock(r.value, hash, h, opts.network);
    },
  };
}

function checkHeight(h: number): void {
  if (!Number.isSafeInteger(h) || h < 0)
    throw new RangeError(`block height must be a non-negative integer: ${h}`);
}

/**
 * The payments of a raw block (hex) that must hash to `hash`. Exported for tests of what a lying node
 * could send; throws ChainNodeError when the bytes are not that block.
 */
export function decodeBlock(hex: string, hash: string, h: number, network: ChainNetwork): ChainBlock {
  const bad = (why: string, cause?: unknown) =>
    new ChainNodeError('BTC', `block ${hash} at height ${h}: ${why}`, { cause });
  let block: Block;
  try {
    block = Block.fromHex(hex);
  } catch (err) {
    throw bad(`not a block (${(err as Error).message})`, err);
  }
  const txs = block.transactions;
  if (!txs || txs.length === 0) throw bad('no transactions');
  if (block.byteLength() * 2 !== hex.length) throw bad('bytes after the last transaction');
  if (block.getId() !== hash) throw bad(`the bytes hash to ${block.getId()}`);
  let rootsMatch: boolean;
  try {
    rootsMatch = block.checkTxRoots();
  } catch (err) {
    throw bad('malformed transactions', err);
  }
  if (!rootsMatch) throw bad('transactions do not match the merkle root or witness commitment');
  if (!txs[0]?.isCoinbase() || txs.slice(1).some((tx) => tx.isCoinbase())) {
    throw bad('the coinbase is not exactly the first transaction');
  }
  if (!block.prevHash) throw bad('no parent hash');
  const parentHash = Buffer.from(block.prevHash).reverse().toString('hex');

  const payments: ChainPayment[] = [];
  for (const tx of txs.slice(1)) {
    const txid = tx.getId();
    tx.outs.forEach((out, vout) => {
      if (out.value < 0n || out.value > MAX_MONEY) throw bad(`${txid}:${vout} has an impossible value`);
      if (out.value === 0n) return;
      const to = addressOf(out.script, network);
      if (to) payments.push({ txid, outputIndex: vout, to, destinationTag: null, amount: out.value });
    });
  }
  return { height: h, hash, parentHash, payments };
}

/** The address of an output script on `network` in the adapter's spelling, or null when it has none. */
export function addressOf(script: Uint8Array, network: ChainNetwork): string | null {
  const decoded = outputOf(script);
  switch (decoded?.type) {
    case 'pkh':
    case 'sh':
    case 'wpkh':
    case 'wsh':
    case 'tr':
      return btc.normalizeAddress(Address(btcNetwork(network)).encode(decoded));
    default:
      return null;
  }
}

function outputOf(script: Uint8Array) {
  try {
    return OutScript.decode(script);
  } catch {
    return null; // not a script a wallet can address (or a taproot key off the curve)
  }
}
