import { hexToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { base58check } from './hashes.ts';
import { callNode, nodeTarget } from './node-call.ts';
import {
  type ChainBlock,
  ChainNodeError,
  type ChainPayment,
  type ChainReader,
  type ReaderOptions,
} from './reader.ts';

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'not a 256-bit hex hash');
/** A TRON address as the HTTP API spells it without `visible`: 0x41 and the 20-byte account id, in hex. */
const hexAddress = z.string().regex(/^41[0-9a-fA-F]{40}$/, 'not a hex TRON address');
/** Protobuf JSON leaves zero out, so a field that is 0 may be absent. */
const height = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Sun: a JSON number that may exceed 2^53 (node-call keeps such integers exact as bigint). */
const sun = z
  .union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.bigint().positive()])
  .transform((v) => BigInt(v))
  .refine((v) => v < 2n ** 63n, 'beyond int64');

const contract = z.looseObject({
  type: z.string().min(1),
  parameter: z.looseObject({ value: z.looseObject({}) }),
});
const transferValue = z.looseObject({ owner_address: hexAddress, to_address: hexAddress, amount: sun });

const transaction = z.looseObject({
  txID: hash,
  ret: z.array(z.looseObject({ contractRet: z.string().optional() })).optional(),
  raw_data: z.looseObject({ contract: z.array(contract).min(1).max(1) }),
});
type Transaction = z.infer<typeof transaction>;

const block = z.looseObject({
  blockID: hash,
  block_header: z.looseObject({
    raw_data: z.looseObject({ number: height.default(0), parentHash: hash }),
  }),
  transactions: z.array(transaction).default([]),
});
type Block = z.infer<typeof block>;

/** getblockbynum answers `{}` for a height above the head. */
const maybeBlock = z.union([
  block,
  z
    .object({})
    .strict()
    .transform(() => null),
]);

/**
 * The TRON reader of DECISIONS §17 over java-tron's HTTP API (`CHAIN_RPC_TRX`; `apiKey` from
 * `CHAIN_API_KEY_TRX` goes as the `TRON-PRO-API-KEY` header hosted gateways ask for). tipHeight is the head
 * block of `/wallet/getnowblock` (TRX_CONFIRMATIONS, default 20, covers what is not solidified yet); blocks come
 * from `/wallet/getblockbynum`. It reports every `TransferContract` (TRX itself; TRC-10 and TRC-20 tokens are
 * other contracts and not this coin) whose `ret[0].contractRet` is `SUCCESS`: `txid` the `txID`, `to` the
 * hex `to_address` as base58check `T...` (the TRX adapter's codec), `amount` in sun, `outputIndex` 0.
 *
 * What the node says is checked as far as JSON allows: a block id starts with its height (TRON's block id is
 * the height followed by 24 bytes of the header hash) and so does its parent's with height - 1, ids are hex of
 * the right length, a transaction has exactly one contract, amounts are positive integers read exactly. Throws
 * ChainNodeError for an unreachable, slow or erroring node and for any answer that does not pass.
 */
export function trxReader(opts: ReaderOptions & { apiKey?: string }): ChainReader {
  const ep = nodeTarget('TRX', opts.url, opts.timeoutMs);
  if (opts.apiKey) ep.headers['TRON-PRO-API-KEY'] = opts.apiKey;
  const fail = (message: string) => new ChainNodeError('TRX', message);

  function checked(b: Block, expected?: number): Block {
    const n = b.block_header.raw_data.number;
    if (expected !== undefined && n !== expected) throw fail(`asked for block ${expected}, got ${n}`);
    if (Number.parseInt(b.blockID.slice(0, 16), 16) !== n)
      throw fail(`block ${n}: id does not carry its height`);
    if (n > 0 && Number.parseInt(b.block_header.raw_data.parentHash.slice(0, 16), 16) !== n - 1) {
      throw fail(`block ${n}: parent id is not of block ${n - 1}`);
    }
    return b;
  }

  async function blockAt(n: number): Promise<Block | null> {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`TRON block height out of range: ${n}`);
    const b = await callNode(ep, '/wallet/getblockbynum', { num: n }, maybeBlock, `block ${n}`);
    return b ? checked(b, n) : null;
  }

  return {
    coin: 'TRX',
    async tipHeight() {
      const b = await callNode(ep, '/wallet/getnowblock', {}, block, 'head block');
      return checked(b).block_header.raw_data.number;
    },
    async blockHash(n) {
      const b = await blockAt(n);
      return b ? b.blockID : null;
    },
    async block(n): Promise<ChainBlock> {
      const b = await blockAt(n);
      if (!b) throw fail(`block ${n} is above the head`);
      const payments: ChainPayment[] = [];
      for (const t of b.transactions) {
        const p = transferOf(t, n);
        if (p) payments.push(p);
      }
      return { height: n, hash: b.blockID, parentHash: b.block_header.raw_data.parentHash, payments };
    },
  };

  function transferOf(t: Transaction, n: number): ChainPayment | null {
    const c = t.raw_data.contract[0];
    if (c?.type !== 'TransferContract') return null;
    if (t.ret?.[0]?.contractRet !== 'SUCCESS') return null;
    const v = transferValue.safeParse(c.parameter.value);
    if (!v.success) throw fail(`block ${n}: transfer ${t.txID} is malformed`);
    return {
      txid: t.txID,
      outputIndex: 0,
      to: tronAddress(v.data.to_address),
      destinationTag: null,
      amount: v.data.amount,
    };
  }
}

/** The base58check `T...` spelling of a hex TRON address (`41` + 20 bytes). */
export function tronAddress(hex: string): string {
  return base58check.encode(hexToBytes(hex.toLowerCase()));
}
