import type { Coin } from '@p2p/contract';
import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import type { z } from 'zod';
import {
  AnswerTooLarge,
  DEFAULT_NODE_TIMEOUT_MS,
  printable,
  readCapped,
  nodeEndpoint as splitCredentials,
} from './node-http.ts';
import { ChainNodeError } from './reader.ts';

/**
 * The largest answer the XRP and TRON readers accept. An expanded XRP ledger or a full TRON block is a few MB
 * at most; a node sending more is broken or hostile.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** A node of one coin: its URL without credentials, the headers to send, the per-call timeout. */
export interface NodeTarget {
  coin: Coin;
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * The node of `CHAIN_RPC_<COIN>` (credentials in its user part go as Basic auth, node-http's nodeEndpoint)
 * with the reader's timeout. Throws TypeError for a URL that is not http(s), RangeError for a timeout that
 * is not a positive integer.
 */
export function nodeTarget(coin: Coin, url: string, timeoutMs = DEFAULT_NODE_TIMEOUT_MS): NodeTarget {
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive integer: ${timeoutMs}`);
  }
  const ep = splitCredentials(url);
  return { coin, url: new URL(ep.url), headers: ep.headers, timeoutMs };
}

/**
 * POSTs `body` as JSON to `path` under the node's URL (a gateway's path prefix kept) and returns the answer
 * parsed by `schema`. The timeout covers the whole call, the body included. Integers beyond 2^53 arrive as
 * bigint, never as a rounded number (TRON writes sun as JSON numbers and sun can exceed it). Throws
 * ChainNodeError when the node is unreachable or slow, answers a non-2xx status, more than 64 MiB, something
 * that is not JSON, or JSON that `schema` refuses; `what` names the call in the message.
 */
export async function callNode<S extends z.ZodType>(
  node: NodeTarget,
  path: string,
  body: unknown,
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const url = new URL(node.url);
  url.pathname = url.pathname.replace(/\/$/, '') + path;
  const signal = AbortSignal.timeout(node.timeoutMs);
  const fail = (why: string, cause?: unknown) => new ChainNodeError(node.coin, `${what}: ${why}`, { cause });
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...node.headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw fail(`HTTP ${res.status}`);
    }
    text = await readCapped(res, MAX_ANSWER_BYTES);
  } catch (err) {
    if (err instanceof ChainNodeError) throw err;
    if (err instanceof AnswerTooLarge) throw fail(err.message, err);
    throw fail(signal.aborted ? `no answer within ${node.timeoutMs} ms` : (err as Error).message, err);
  }
  let json: unknown;
  try {
    json = parseLossless(text, null, parseExactNumber);
  } catch (err) {
    throw fail(`the answer is not JSON: ${printable(text)}`, err);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'malformed';
    throw fail(`unexpected answer (${where})`, parsed.error);
  }
  return parsed.data;
}

/** JSON numbers as a node means them: safe integers as number, larger integers as bigint, the rest as number. */
function parseExactNumber(value: string): number | bigint {
  if (/^-?\d+$/.test(value) && !isSafeNumber(value)) return BigInt(value);
  return Number(value);
}
