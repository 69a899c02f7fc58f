import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AccountsResponse,
  accountsResponseSchema,
  SIGNER_PATHS,
  type SignMessageRequest,
  type SignMessageResponse,
  type SignRequest,
  type SignResponse,
  signerErrorBody,
  signMessageResponseSchema,
  signRequest,
  signResponseSchema,
} from '@p2p/signer-protocol';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * The API's side of the signer protocol (DECISIONS §18, SIGNER-PROTOCOL.md): every call HMAC-signed with the
 * shared token; answers checked against the protocol's schemas. It holds no key and can only ask.
 */
export interface SignerClient {
  /** POST /v1/sign. Safe to repeat with the same requestId and intent: the signer answers from its journal. */
  sign(req: SignRequest): Promise<SignResponse>;
  /** POST /v1/sign-message: a control signature (DECISIONS §20). */
  signMessage(req: SignMessageRequest): Promise<SignMessageResponse>;
  /** GET /v1/accounts: the signer's public account keys and hot addresses. */
  accounts(): Promise<AccountsResponse>;
  /** GET /healthz: true when the signer answers. */
  healthy(): Promise<boolean>;
}

export interface SignerClientOptions {
  /** The signer's base URL, e.g. http://127.0.0.1:8081. */
  url: string;
  token: string;
  /** Per call (default 10 s); a call that takes longer is SIGNER_UNAVAILABLE. */
  timeoutMs?: number;
}

/** The AppError of a signer refusal: its limits keep their codes; every other refusal is SIGNER_REFUSED. */
function refusal(status: number, body: unknown): AppError {
  const parsed = signerErrorBody.safeParse(body);
  if (!parsed.success) {
    return status >= 502
      ? new AppError('SIGNER_UNAVAILABLE')
      : new AppError('SIGNER_REFUSED', { reason: 'MALFORMED' });
  }
  const { code, message, data } = parsed.data;
  if (code === 'SIGNER_LIMIT_TX' || code === 'SIGNER_LIMIT_DAY') return new AppError(code, data ?? null);
  if (code === 'SIGNER_REQUEST_REUSED') return new AppError(code);
  return new AppError('SIGNER_REFUSED', { reason: code, message });
}

/**
 * A client of the signer at `url` (SIGNER_URL). Throws AppError: SIGNER_LIMIT_TX {limit}, SIGNER_LIMIT_DAY
 * {limit, used}, SIGNER_REQUEST_REUSED, SIGNER_REFUSED {reason, message} (authentication, clock, a malformed or
 * unsignable intent), SIGNER_UNAVAILABLE (unreachable, timed out, or a proxy's 502-504).
 */
export function createSignerClient(opts: SignerClientOptions): SignerClient {
  const base = opts.url.replace(/\/+$/, '');
  let lastStamp = 0;
  // Two calls with one body in one millisecond would carry one signature, the second refused as a replay.
  const stamp = () => {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return lastStamp;
  };
  async function once(method: 'GET' | 'POST', path: string, rawBody: string): Promise<Response> {
    const headers: Record<string, string> = signRequest(opts.token, { method, path, rawBody }, stamp());
    if (method === 'POST') headers['content-type'] = 'application/json';
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers,
        body: method === 'POST' ? rawBody : undefined,
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch {
      throw new AppError('SIGNER_UNAVAILABLE');
    }
  }
  async function call<T extends z.ZodType>(schema: T, path: string, body?: unknown): Promise<z.infer<T>> {
    const method = body === undefined ? 'GET' : 'POST';
    const rawBody = body === undefined ? '' : JSON.stringify(body);
    let res = await once(method, path, rawBody);
    let json: unknown = await res.json().catch(() => undefined);
    // Another caller may have sent the same body in the same millisecond: a fresh timestamp is a new request.
    if (res.status === 401 && (json as { code?: string } | undefined)?.code === 'SIGNER_REPLAY') {
      res = await once(method, path, rawBody);
      json = await res.json().catch(() => undefined);
    }
    if (!res.ok) throw refusal(res.status, json);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AppError('SIGNER_REFUSED', { reason: 'MALFORMED_ANSWER' });
    return parsed.data;
  }
  return {
    sign: (req) => call(signResponseSchema, SIGNER_PATHS.sign, req),
    signMessage: (req) => call(signMessageResponseSchema, SIGNER_PATHS.signMessage, req),
    accounts: () => call(accountsResponseSchema, SIGNER_PATHS.accounts),
    healthy: () =>
      fetch(`${base}${SIGNER_PATHS.health}`, { signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) })
        .then((r) => r.ok)
        .catch(() => false),
  };
}

/** Where the development signer keeps the token it generated (apps/signer/src/seed.ts). */
export const SIGNER_TOKEN_FILE = join('signer', 'token');

/**
 * The signer client of this configuration: SIGNER_URL and SIGNER_TOKEN; outside production without
 * SIGNER_TOKEN, the token the development signer wrote to `<DATA_DIR>/signer/token`. Throws when no token is
 * to be found (the signer never started on this DATA_DIR).
 */
export function signerClientFromConfig(config: Config): SignerClient {
  let token = config.signer.token;
  const file = join(config.dataDir, SIGNER_TOKEN_FILE);
  if (!token && !config.isProduction && existsSync(file)) token = readFileSync(file, 'utf8').trim();
  if (!token) throw new Error(`no SIGNER_TOKEN and no ${file}: start the signer (npm run signer) or set it`);
  return createSignerClient({ url: config.signer.url, token, timeoutMs: config.chainWatch.timeoutMs });
}
