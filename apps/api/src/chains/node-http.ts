import type { Coin } from '@p2p/contract';
import { ChainNodeError } from './reader.ts';

/** Per node call when ReaderOptions.timeoutMs is not given (DECISIONS §17: every node call has a timeout). */
export const DEFAULT_NODE_TIMEOUT_MS = 10_000;

/** A node's URL without its credentials, and the headers that carry them. */
export interface NodeEndpoint {
  url: string;
  headers: Record<string, string>;
}

/**
 * Splits `CHAIN_RPC_<COIN>` into the URL to call and a Basic `authorization` header made from its user part
 * (DECISIONS §17), since fetch refuses URLs with credentials. Throws TypeError for a URL that is not
 * http(s).
 */
export function nodeEndpoint(raw: string): NodeEndpoint {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`node URL must be http(s): ${url.protocol}`);
  }
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url: url.toString(), headers };
}

/**
 * POSTs `body` as JSON and parses the answer as JSON, whatever the HTTP status (JSON-RPC servers such as
 * Bitcoin Core answer errors with 4xx/5xx and a JSON body). The timeout covers the whole exchange, body
 * included, and an answer longer than `maxBytes` is cut off. Throws ChainNodeError when the node cannot be
 * reached, is too slow, answers too much or answers something that is not JSON; never returns a partial
 * answer.
 */
export async function postJson(
  coin: Coin,
  endpoint: NodeEndpoint,
  body: unknown,
  opts: { timeoutMs: number; maxBytes: number; what: string },
): Promise<{ status: number; json: unknown }> {
  let res: Response;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    res = await fetch(endpoint.url, {
      method: 'POST',
      headers: { ...endpoint.headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
      redirect: 'error',
    });
  } catch (err) {
    throw new ChainNodeError(coin, `${opts.what}: ${describeFetchError(err, opts.timeoutMs)}`, {
      cause: err,
    });
  }
  let text: string;
  try {
    text = await readCapped(res, opts.maxBytes);
  } catch (err) {
    const why = err instanceof AnswerTooLarge ? err.message : describeFetchError(err, opts.timeoutMs);
    throw new ChainNodeError(coin, `${opts.what}: ${why}`, { cause: err });
  }
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch (err) {
    throw new ChainNodeError(coin, `${opts.what}: HTTP ${res.status}, not JSON: ${printable(text)}`, {
      cause: err,
    });
  }
}

/** An answer longer than the reader accepts. */
export class AnswerTooLarge extends Error {}

/**
 * The body of `res` as text, refusing (AnswerTooLarge) past `maxBytes` so a node cannot make the API hold
 * an unbounded answer in memory; the read stops at the limit.
 */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new AnswerTooLarge(`answer of ${declared} bytes exceeds ${maxBytes}`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new AnswerTooLarge(`answer exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e?.message ?? 'fetch failed'} (${cause})` : (e?.message ?? String(err));
}

/** The start of a node's text for a log line: at most 120 characters, control characters replaced. */
export function printable(text: string): string {
  const cut = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return JSON.stringify(cut.replace(/\p{Cc}/gu, ' '));
}
