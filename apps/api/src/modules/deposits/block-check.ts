import type { Coin } from '@p2p/contract';
import type { ChainNetwork } from '../../chains/adapter.ts';
import { isValidAddress, normalizeAddress } from '../../chains/index.ts';
import { canonicalTxid } from '../../chains/txid.ts';

/**
 * What the watcher believes of a node's block (DECISIONS §17: "a node's answer is checked, never trusted"). The
 * readers check what they parse; this checks again what reaches the ledger, whatever reader produced it.
 */

/** A block answer the watcher refuses: it is not applied (the watcher retries it later, with back-off). */
export class MalformedBlockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedBlockError';
  }
}

/** A payment as the watcher uses it: canonical txid and address, integer amount in chain units. */
export interface CheckedPayment {
  txid: string;
  outputIndex: number;
  to: string;
  destinationTag: number | null;
  amount: bigint;
}

export interface CheckedBlock {
  height: number;
  /** Lower-case hex, so that two spellings of one hash compare equal. */
  hash: string;
  parentHash: string;
  payments: CheckedPayment[];
}

const HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const MAX_TAG = 2 ** 32 - 1;
const MAX_INDEX = 2 ** 31 - 1;

/** A block hash in the one spelling the watcher stores and compares (lower-case hex as given, `0x` kept). */
export function canonicalHash(hash: unknown): string | null {
  return typeof hash === 'string' && HASH.test(hash) ? hash.toLowerCase() : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Checks block `raw` as the block at `height` of `coin`: height, hash and parent hash must be right, or the whole
 * block is refused (MalformedBlockError). A payment that is malformed (txid, index, recipient, tag, amount) is
 * left out and described in `skipped` for the log; a payment of 0 is left out silently (nothing moved). A second
 * payment with the same txid and index is left out too (one output, one deposit).
 */
export function checkBlock(
  coin: Coin,
  network: ChainNetwork,
  raw: unknown,
  height: number,
): { block: CheckedBlock; skipped: string[] } {
  if (!isObject(raw)) throw new MalformedBlockError(`block ${height}: not an object`);
  if (raw.height !== height)
    throw new MalformedBlockError(`block ${height}: answered height ${String(raw.height)}`);
  const hash = canonicalHash(raw.hash);
  if (!hash) throw new MalformedBlockError(`block ${height}: malformed hash`);
  const parentHash = canonicalHash(raw.parentHash);
  if (!parentHash) throw new MalformedBlockError(`block ${height}: malformed parent hash`);
  if (!Array.isArray(raw.payments)) throw new MalformedBlockError(`block ${height}: payments is not a list`);
  const payments: CheckedPayment[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  raw.payments.forEach((p: unknown, i: number) => {
    const why = paymentProblem(coin, network, p);
    if (why) {
      skipped.push(`payment ${i}: ${why}`);
      return;
    }
    const q = p as {
      txid: string;
      outputIndex: number;
      to: string;
      destinationTag: number | null;
      amount: bigint;
    };
    if (q.amount === 0n) return;
    const txid = canonicalTxid(coin, q.txid);
    const key = `${txid}:${q.outputIndex}`;
    if (seen.has(key)) {
      skipped.push(`payment ${i}: ${key} twice in the block`);
      return;
    }
    seen.add(key);
    payments.push({
      txid,
      outputIndex: q.outputIndex,
      to: normalizeAddress(coin, q.to),
      destinationTag: q.destinationTag ?? null,
      amount: q.amount,
    });
  });
  return { block: { height, hash, parentHash, payments }, skipped };
}

function paymentProblem(coin: Coin, network: ChainNetwork, p: unknown): string | null {
  if (!isObject(p)) return 'not an object';
  if (typeof p.txid !== 'string' || !HASH.test(p.txid)) return 'malformed txid';
  const idx = p.outputIndex;
  if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || idx > MAX_INDEX)
    return 'bad output index';
  if (typeof p.to !== 'string' || p.to.length === 0 || p.to.length > 128) return 'bad recipient';
  if (!isValidAddress(coin, p.to, network)) return 'recipient is not an address of the coin';
  const tag = p.destinationTag;
  if (tag !== null && tag !== undefined) {
    if (typeof tag !== 'number' || !Number.isInteger(tag) || tag < 0 || tag > MAX_TAG)
      return 'bad destination tag';
  }
  if (typeof p.amount !== 'bigint' || p.amount < 0n) return 'bad amount';
  return null;
}
