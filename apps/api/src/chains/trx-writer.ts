import { z } from 'zod';
import { base58check } from './hashes.ts';
import { callNode, nodeTarget } from './node-call.ts';
import { ChainNodeError } from './reader.ts';

const hash = z.string().regex(/^[0-9a-f]{64}$/i, 'not a 256-bit hex hash');
const int = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.bigint().nonnegative()]);
const nowBlock = z.looseObject({
  blockID: hash,
  block_header: z.looseObject({
    raw_data: z.looseObject({ number: int.default(0), timestamp: int }),
  }),
});
/** broadcasttransaction / broadcasthex: `{result: true, txid}` or `{code, message (hex text), txid?}`. */
const broadcastAnswer = z.looseObject({
  result: z.boolean().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  txid: z.string().optional(),
});
/** gettransactioninfobyid: `{}` until the transaction is in a block. */
const txInfo = z.looseObject({
  id: hash.optional(),
  blockNumber: int.optional(),
  fee: int.optional(),
  result: z.string().optional(),
  receipt: z.looseObject({ result: z.string().optional() }).optional(),
});
const account = z.looseObject({ balance: int.optional() });

/** The head block as a transaction's TaPoS reference needs it (TRON's ref_block_bytes / ref_block_hash). */
export interface TronRefBlock {
  number: number;
  /** Bytes 6..7 of the 8-byte block height, hex (4 characters). */
  refBlockBytes: string;
  /** Bytes 8..15 of the block id, hex (16 characters). */
  refBlockHash: string;
  /** The block's time, ms since the epoch. */
  timestamp: number;
}

export type TronBroadcast =
  | { kind: 'ACCEPTED' }
  | { kind: 'KNOWN' }
  | { kind: 'REJECTED'; code: string; reason: string };

/** Where a TRON transaction is: its block and the chain's head (for confirmations), or not in a block. */
export type TronTxInfo =
  | { inBlock: true; blockNumber: number; head: number; feeSun: bigint; failed: boolean }
  | { inBlock: false; pending: boolean };

/** java-tron's answer codes that say "try again later", not "this transaction is bad". */
const TRANSIENT = new Set([
  'SERVER_BUSY',
  'NO_CONNECTION',
  'NOT_ENOUGH_EFFECTIVE_CONNECTION',
  'BLOCK_UNSOLIDIFIED',
]);

/**
 * The write side of java-tron's HTTP API for the TRX payer (DECISIONS §18): the head block for a
 * transaction's reference, an account's balance, `/wallet/broadcasttransaction` with its documented answers
 * (`result: true`; `code` DUP_TRANSACTION_ERROR = already known; SIGERROR, TAPOS_ERROR,
 * TRANSACTION_EXPIRATION_ERROR, CONTRACT_VALIDATE_ERROR, BANDWITH_ERROR ... = refused; SERVER_BUSY and the
 * connection codes thrown as ChainNodeError so the caller retries), and a transaction's block from
 * `/wallet/gettransactioninfobyid` (`{}` until mined; `/wallet/gettransactionfrompending` says whether the node
 * still holds it). Every answer is checked; throws ChainNodeError for a node that is down or answers wrongly.
 */
export function trxWriter(url: string, opts: { timeoutMs?: number; apiKey?: string } = {}) {
  const ep = nodeTarget('TRX', url, opts.timeoutMs);
  if (opts.apiKey) ep.headers['TRON-PRO-API-KEY'] = opts.apiKey;

  async function refBlock(): Promise<TronRefBlock> {
    const b = await callNode(ep, '/wallet/getnowblock', {}, nowBlock, 'head block');
    const number = Number(b.block_header.raw_data.number);
    if (Number.parseInt(b.blockID.slice(0, 16), 16) !== number) {
      throw new ChainNodeError('TRX', `head block ${number}: id does not carry its height`);
    }
    const heightHex = number.toString(16).padStart(16, '0');
    return {
      number,
      refBlockBytes: heightHex.slice(12, 16),
      refBlockHash: b.blockID.slice(16, 32).toLowerCase(),
      timestamp: Number(b.block_header.raw_data.timestamp),
    };
  }

  return {
    refBlock,
    /** The balance of `address` (base58 `T...`) in sun; 0 for an account the chain does not know yet. */
    async balance(address: string): Promise<bigint> {
      const hex = Buffer.from(base58check.decode(address)).toString('hex');
      const a = await callNode(ep, '/wallet/getaccount', { address: hex }, account, `account ${address}`);
      return BigInt(a.balance ?? 0);
    },
    /** Sends a signed transaction (the signer's JSON `{txID, raw_data_hex, signature, ...}`). */
    async broadcast(signedTx: Record<string, unknown>): Promise<TronBroadcast> {
      const r = await callNode(ep, '/wallet/broadcasttransaction', signedTx, broadcastAnswer, 'broadcast');
      if (r.result === true) return { kind: 'ACCEPTED' };
      const code = r.code ?? 'NO_CODE';
      const reason = decodeMessage(r.message);
      if (code === 'DUP_TRANSACTION_ERROR') return { kind: 'KNOWN' };
      if (TRANSIENT.has(code)) throw new ChainNodeError('TRX', `broadcast: ${code} ${reason}`);
      return { kind: 'REJECTED', code, reason: `${code}: ${reason}`.slice(0, 300) };
    },
    async info(txid: string): Promise<TronTxInfo> {
      const i = await callNode(ep, '/wallet/gettransactioninfobyid', { value: txid }, txInfo, `info ${txid}`);
      if (i.blockNumber === undefined) {
        const p = await callNode(
          ep,
          '/wallet/gettransactionfrompending',
          { value: txid },
          z.looseObject({ txID: hash.optional() }),
          `pending ${txid}`,
        );
        return { inBlock: false, pending: p.txID?.toLowerCase() === txid.toLowerCase() };
      }
      if (i.id && i.id.toLowerCase() !== txid.toLowerCase())
        throw new ChainNodeError('TRX', `info answered ${i.id} for ${txid}`);
      const head = (await refBlock()).number;
      return {
        inBlock: true,
        blockNumber: Number(i.blockNumber),
        head,
        feeSun: BigInt(i.fee ?? 0),
        failed: i.result === 'FAILED',
      };
    },
  };
}

export type TrxWriter = ReturnType<typeof trxWriter>;

/** java-tron writes an error's text as hex; a node that does not is shown as it wrote it. */
function decodeMessage(message: string | undefined): string {
  if (!message) return '';
  if (/^(?:[0-9a-f]{2})+$/i.test(message))
    return Buffer.from(message, 'hex')
      .toString('utf8')
      .replace(/\p{Cc}/gu, ' ');
  return message.slice(0, 200);
}
