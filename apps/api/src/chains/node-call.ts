import type { Coin } from '@p2p/contract';
import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import type { z } from 'zod';
import { ChainNodeError } from './reader.ts';

/** Per node call when ReaderOptions.timeoutMs is not given (DECISIONS §17). */
export const DEFAULT_NODE_TIMEOUT_MS = 10_000;

/**
 * The largest answer a node may send. An expanded XRP ledger or a full TRON block is a few MB at most; a node
 * streaming more is broken or hostile, and reading it unbounded would let it fill the API's memory.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface NodeEndpoint {
  coin: Coin;
  /** The node's base URL without credentials. */
  base: URL;
  /** Basic auth from the URL's user part, plus any header the reader adds (TRON-PRO-API-KEY). */
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * Splits `CHAIN_RPC_<COIN>` into the URL to call and its Basic auth header (fetch refuses URLs that carry
 * credentials). Throws ChainNodeError for a URL that is not http(s).
 */
export function nodeEndpoint(coin: Coin, url: string, timeoutMs?: number): NodeEndpoint {
  let base: URL;
  try {
    base = new URL(url);
  } catch (err) {
    throw new ChainNodeError(coin, 'CHAIN_RPC is not a URL', { cause: err });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ChainNodeError(coin, `CHAIN_RPC must be http or https, not ${base.protocol}`);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (base.username || base.password) {
    const user = decodeURIComponent(base.username);
    const pass = decodeURIComponent(base.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    base.username = '';
    base.password = '';
  }
  const ms = timeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new RangeError(`timeoutMs must be a positive integer: ${ms}`);
  return { coin, base, headers, timeoutMs: ms };
}

/**
 * POSTs `body` as JSON to `path` under the endpoint and returns the answer parsed by `schema`. The timeout
 * covers the whole call, reading the body included, so a node that sends headers and then stalls is cut off
 * too. Integers beyond 2^53 arrive as bigint (TRON amounts are JSON numbers and sun can exceed it), never as
 * a rounded number. Throws ChainNodeError when the node is unreachable, slow, answers a non-2xx status,
 * more than 64 MiB, something that is not JSON, or JSON that `schema` refuses; `what` names the call in
 * the message.
 */
export async function postJson<S extends z.ZodType>(
  ep: NodeEndpoint,
  path: string,
  body: unknown,
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const url = new URL(path, ep.base);
  // `new URL('/wallet/x', 'http://h/prefix/')` would drop the gateway's prefix; keep it.
  if (path.startsWith('/') && ep.base.pathname !== '/') {
    url.pathname = ep.base.pathname.replace(/\/$/, '') + path;
  }
  const signal = AbortSignal.timeout(ep.timeoutMs);
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: ep.headers,
      body: JSON.stringify(body),
      signal,
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new ChainNodeError(ep.coin, `${what}: HTTP ${res.status}`);
    }
    text = await readCapped(res, ep.coin, what);
  } catch (err) {
    if (err instanceof ChainNodeError) throw err;
    const timedOut = signal.aborted;
    throw new ChainNodeError(
      ep.coin,
      timedOut ? `${what}: no answer within ${ep.timeoutMs} ms` : `${what}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = parseLossless(text, null, parseExactNumber);
  } catch (err) {
    throw new ChainNodeError(ep.coin, `${what}: the answer is not JSON`, { cause: err });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'malformed';
    throw new ChainNodeError(ep.coin, `${what}: unexpected answer (${where})`, { cause: parsed.error });
  }
  return parsed.data;
}

/** JSON numbers as a node means them: safe integers as number, larger integers as bigint, the rest as number. */
function parseExactNumber(value: string): number | bigint {
  if (/^-?\d+$/.test(value) && !isSafeNumber(value)) return BigInt(value);
  return Number(value);
}

async function readCapped(res: Response, coin: Coin, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw new ChainNodeError(coin, `${what}: answer of ${declared} bytes is too large`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new ChainNodeError(coin, `${what}: answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
