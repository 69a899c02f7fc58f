import {
  createClient,
  type EIP1193Parameters,
  type Hex,
  hexToBigInt,
  http,
  numberToHex,
  rpcSchema,
} from 'viem';
import { z } from 'zod';
import { eth } from './eth.ts';
import { AnswerTooLarge, DEFAULT_NODE_TIMEOUT_MS, nodeEndpoint, readCapped } from './node-http.ts';
import {
  type ChainBlock,
  ChainNodeError,
  type ChainPayment,
  type ChainReader,
  type ReaderOptions,
} from './reader.ts';

/** A block with a full call trace is a few MB on mainnet; 64 MiB leaves room and still bounds memory. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Receipts asked for at once in the fallback (one per top-level transfer with value). */
const RECEIPT_CONCURRENCY = 8;
/** JSON-RPC codes meaning "this node does not offer the method": the node has no debug namespace. */
const METHOD_NOT_FOUND = -32601;
const METHOD_NOT_SUPPORTED = -32004;
/** Call-frame types that move value to `to` (CALLCODE and DELEGATECALL move none; STATICCALL cannot). */
const VALUE_FRAMES = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);
/** The EVM's call depth limit; a deeper trace is not one a node could have made. */
const MAX_DEPTH = 1025;

/** The methods this reader calls; results are `unknown` until zod has checked them. */
type NodeSchema = [
  { Method: 'eth_blockNumber'; Parameters?: undefined; ReturnType: unknown },
  { Method: 'eth_getBlockByNumber'; Parameters: [Hex, boolean]; ReturnType: unknown },
  { Method: 'debug_traceBlockByHash'; Parameters: [Hex, { tracer: 'callTracer' }]; ReturnType: unknown },
  { Method: 'eth_getTransactionReceipt'; Parameters: [Hex]; ReturnType: unknown },
];

const quantity = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'a hex quantity')
  .transform((q) => hexToBigInt(q as Hex));
const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte hex hash')
  .transform((h) => h.toLowerCase() as Hex);
const address20 = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 20-byte hex address');

const headerOnly = z.object({ number: quantity, hash: hash32, parentHash: hash32 });
const transaction = z.object({ hash: hash32, to: address20.nullable().optional(), value: quantity });
const fullBlock = headerOnly.extend({ transactions: z.array(transaction) });
const receipt = z.object({
  transactionHash: hash32,
  blockHash: hash32,
  status: z.enum(['0x0', '0x1']),
  contractAddress: address20.nullable().optional(),
});

/** One frame of geth's callTracer (the fields this reader uses). */
interface Frame {
  type: string;
  to?: string | undefined;
  value?: bigint | undefined;
  error?: string | undefined;
  calls?: Frame[] | undefined;
}
const frame: z.ZodType<Frame> = z.lazy(() =>
  z.object({
    type: z.string().max(32),
    to: address20.optional(),
    value: quantity.optional(),
    error: z.string().optional(),
    calls: z.array(frame).optional(),
  }),
);
const traces = z.array(
  z.union([
    z.object({ txHash: hash32.optional(), result: frame }),
    z.object({ txHash: hash32.optional(), error: z.string() }),
  ]),
);

type FullBlock = z.infer<typeof fullBlock>;

/**
 * The deposit watcher's reader of an Ethereum execution client (DECISIONS §17), over JSON-RPC with viem at
 * `opts.url` (Basic auth from the URL's user part, one timeout per call, no retries: the watcher backs off).
 *
 * A block's payments are the value transfers that happened: with the node's debug namespace, every call
 * frame of `debug_traceBlockByHash` with geth's callTracer (pinned to the hash of the block read, so a
 * reorg between the two calls cannot mix two blocks) of type CALL, CREATE, CREATE2 or SELFDESTRUCT with a
 * value above 0 and no error in the frame or any frame above it; `outputIndex` is the frame's position in a
 * depth-first walk of its transaction's call tree, 0 = the transaction itself. A node without the debug
 * namespace (method not found) gives top-level transfers of successful transactions only (receipt status),
 * also at index 0, and the reader logs once that payments made by contracts are not seen. Addresses are
 * EIP-55 (the ETH adapter's normalizeAddress), amounts wei, hashes lower-case 0x hex.
 *
 * Throws ChainNodeError for anything the node fails to answer or answers wrongly (including a trace that
 * disagrees with the block's transactions); RangeError for a height that is not a non-negative safe integer.
 */
export function ethReader(opts: ReaderOptions): ChainReader {
  const endpoint = nodeEndpoint(opts.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  const client = createClient({
    rpcSchema: rpcSchema<NodeSchema>(),
    transport: http(endpoint.url, {
      timeout: timeoutMs,
      retryCount: 0,
      fetchOptions: { headers: endpoint.headers, redirect: 'error' },
      async fetchFn(input, init) {
        const res = await fetch(input, init);
        const text = await readCapped(res, MAX_ANSWER_BYTES);
        return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
      },
    }),
  });
  /** Unknown until the first block is traced; false once the node said it has no debug namespace. */
  let tracesAvailable: boolean | undefined;

  async function request<T>(
    args: EIP1193Parameters<NodeSchema>,
    schema: z.ZodType<T>,
    what: string,
  ): Promise<T> {
    let raw: unknown;
    try {
      raw = await client.request(args, { retryCount: 0 });
    } catch (err) {
      throw nodeError(err, what);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ChainNodeError(
        'ETH',
        `${what}: unexpected result (${issue?.path.join('.')}: ${issue?.message})`,
      );
    }
    return parsed.data;
  }

  async function header(h: number, full: false): Promise<z.infer<typeof headerOnly> | null>;
  async function header(h: number, full: true): Promise<FullBlock | null>;
  async function header(h: number, full: boolean) {
    checkHeight(h);
    const schema = full ? fullBlock : headerOnly;
    const block = await request(
      { method: 'eth_getBlockByNumber', params: [numberToHex(h), full] },
      schema.nullable(),
      `eth_getBlockByNumber(${h})`,
    );
    if (block && block.number !== BigInt(h)) {
      throw new ChainNodeError('ETH', `eth_getBlockByNumber(${h}) answered block ${block.number}`);
    }
    return block;
  }

  async function tracedPayments(block: FullBlock): Promise<ChainPayment[] | null> {
    let results: z.infer<typeof traces>;
    try {
      results = await request(
        { method: 'debug_traceBlockByHash', params: [block.hash, { tracer: 'callTracer' }] },
        traces,
        `debug_traceBlockByHash(${block.hash})`,
      );
    } catch (err) {
      const code = rpcCode(err);
      if (code === METHOD_NOT_FOUND || code === METHOD_NOT_SUPPORTED) return null;
      throw err;
    }
    const bad = (why: string) => new ChainNodeError('ETH', `trace of block ${block.hash}: ${why}`);
    if (results.length !== block.transactions.length) {
      throw bad(`${results.length} traces for ${block.transactions.length} transactions`);
    }
    const payments: ChainPayment[] = [];
    block.transactions.forEach((tx, i) => {
      const trace = results[i];
      if (!trace || 'error' in trace) throw bad(`transaction ${tx.hash} could not be traced`);
      if (trace.txHash !== undefined && trace.txHash !== tx.hash)
        throw bad(`trace ${i} is of ${trace.txHash}`);
      const top = trace.result;
      // The top frame is the transaction itself: what it says must be what the block says.
      if ((top.value ?? 0n) !== tx.value || (tx.to && top.to?.toLowerCase() !== tx.to.toLowerCase())) {
        throw bad(`the trace of ${tx.hash} disagrees with the transaction`);
      }
      let position = 0;
      const walk = (f: Frame, failedAbove: boolean, depth: number) => {
        if (depth > MAX_DEPTH) throw bad(`the trace of ${tx.hash} is deeper than the EVM allows`);
        const index = position++;
        const failed = failedAbove || f.error !== undefined;
        const value = f.value ?? 0n;
        if (!failed && value > 0n && f.to && VALUE_FRAMES.has(f.type.toUpperCase())) {
          payments.push({
            txid: tx.hash,
            outputIndex: index,
            to: eth.normalizeAddress(f.to),
            destinationTag: null,
            amount: value,
          });
        }
        for (const child of f.calls ?? []) walk(child, failed, depth + 1);
      };
      walk(top, false, 0);
    });
    return payments;
  }

  async function topLevelPayments(block: FullBlock): Promise<ChainPayment[]> {
    const valued = block.transactions.filter((tx) => tx.value > 0n);
    const payments: ChainPayment[] = [];
    for (let i = 0; i < valued.length; i += RECEIPT_CONCURRENCY) {
      const batch = valued.slice(i, i + RECEIPT_CONCURRENCY);
      const receipts = await Promise.all(
        batch.map((tx) =>
          request(
            { method: 'eth_getTransactionReceipt', params: [tx.hash] },
            receipt.nullable(),
            `eth_getTransactionReceipt(${tx.hash})`,
          ),
        ),
      );
      batch.forEach((tx, k) => {
        const r = receipts[k];
        // A receipt of another block: the block was replaced while we read it.
        if (!r || r.transactionHash !== tx.hash || r.blockHash !== block.hash) {
          throw new ChainNodeError('ETH', `receipt of ${tx.hash} is not of block ${block.hash}`);
        }
        const to = tx.to ?? r.contractAddress;
        if (r.status === '0x1' && to) {
          payments.push({
            txid: tx.hash,
            outputIndex: 0,
            to: eth.normalizeAddress(to),
            destinationTag: null,
            amount: tx.value,
          });
        }
      });
    }
    return payments;
  }

  return {
    coin: 'ETH',
    async tipHeight() {
      const n = await request({ method: 'eth_blockNumber' }, quantity, 'eth_blockNumber');
      if (n > BigInt(Number.MAX_SAFE_INTEGER))
        throw new ChainNodeError('ETH', `eth_blockNumber: ${n} is no height`);
      return Number(n);
    },
    async blockHash(h) {
      return (await header(h, false))?.hash ?? null;
    },
    async block(h) {
      const block = await header(h, true);
      if (!block) throw new ChainNodeError('ETH', `no block at height ${h} (above the tip)`);
      let payments: ChainPayment[] | null = null;
      if (tracesAvailable !== false) {
        payments = await tracedPayments(block);
        if (payments === null && tracesAvailable === undefined) {
          opts.log?.warn(
            { coin: 'ETH' },
            'ETH node has no debug_traceBlockByHash (debug namespace): reading top-level transfers only; ETH paid by contracts (multisig and smart-contract wallets) will not be seen',
          );
        }
        tracesAvailable = payments !== null;
      }
      payments ??= await topLevelPayments(block);
      const result: ChainBlock = { height: h, hash: block.hash, parentHash: block.parentHash, payments };
      return result;
    },
  };
}

function checkHeight(h: number): void {
  if (!Number.isSafeInteger(h) || h < 0)
    throw new RangeError(`block height must be a non-negative integer: ${h}`);
}

/** The JSON-RPC error code somewhere in a viem error's chain, or null. */
function rpcCode(err: unknown): number | null {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 10;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'number') return e.code;
  }
  return null;
}

function nodeError(err: unknown, what: string): ChainNodeError {
  const e = err as { name?: string; shortMessage?: string; message?: string; status?: number };
  let why: string;
  if (e?.name === 'TimeoutError') why = 'no answer in time';
  else if (findCause(err, AnswerTooLarge)) why = (findCause(err, AnswerTooLarge) as Error).message;
  else why = (e?.shortMessage ?? e?.message ?? String(err)).split('\n')[0]?.slice(0, 200) ?? 'failed';
  const code = rpcCode(err);
  return new ChainNodeError('ETH', `${what}: ${why}${code !== null ? ` (code ${code})` : ''}`, {
    cause: err,
  });
}

function findCause(err: unknown, type: new (...args: never[]) => Error): unknown {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 10; e = e.cause as typeof e, i++) {
    if (e instanceof type) return e;
  }
  return null;
}
