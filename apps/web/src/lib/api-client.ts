import { LIMITS } from '@p2p/contract/limits.ts';
import { idempotencyKeyFor, outcomeUnknown, settleIdempotencyKey } from './idempotency';
import { useSession } from './session';
import { local, STORAGE_KEYS } from './storage';

/** API base URL (empty = same origin, which is how `npm start` serves the app). */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '';

/**
 * A failed call (DECISIONS §2): `code` is the envelope's stable returnMessage (e.g. INVALID_CREDENTIALS),
 * or NETWORK_ERROR / TIMEOUT for transport failures; `fields` maps form fields to field codes.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: Record<string, string>;
  /** the envelope's returnData of the refusal, e.g. PURCHASE_BLOCKED {until} (DECISIONS §11) */
  readonly data: Record<string, unknown>;

  constructor(
    code: string,
    status: number,
    fields: Record<string, string> = {},
    data: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
    this.data = data;
  }
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** DECISIONS §15: send an Idempotency-Key, kept across retries of the same request (lib/idempotency.ts). */
  idempotent?: boolean;
  /** Answer the body as a Blob instead of unwrapping an envelope (chat images, DECISIONS §12). */
  blob?: boolean;
}

interface Envelope {
  returnCode?: unknown;
  returnMessage?: unknown;
  returnData?: unknown;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') qs.set(k, String(v));
  const q = qs.toString();
  return `${API_BASE}${path}${q ? `?${q}` : ''}`;
}

function fieldsOf(data: unknown): Record<string, string> {
  if (data && typeof data === 'object' && 'fields' in data) {
    const f = (data as { fields: unknown }).fields;
    if (f && typeof f === 'object') return f as Record<string, string>;
  }
  return {};
}

/**
 * One HTTP exchange: bearer, 10 s timeout, envelope unwrapping. Throws ApiError. Exported for the operator
 * console, which sends with its own tokens and its own 401 policy.
 */
export async function send(method: string, path: string, opts: RequestOptions, token: string | null) {
  const signals = [AbortSignal.timeout(LIMITS.apiTimeoutMs)];
  if (opts.signal) signals.push(opts.signal);
  const headers: Record<string, string> = { accept: opts.blob ? '*/*' : 'application/json' };
  // a FormData body (multipart upload) sets its own content type with the boundary
  const body =
    opts.body instanceof FormData || opts.body === undefined ? opts.body : JSON.stringify(opts.body);
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.idempotent) headers['idempotency-key'] = idempotencyKeyFor(method, path, opts.body);
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body,
      signal: AbortSignal.any(signals),
    });
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    throw new ApiError(name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK_ERROR', 0);
  }
  if (opts.blob && res.ok) return res.blob();
  let env: Envelope | null = null;
  try {
    env = (await res.json()) as Envelope;
  } catch {
    env = null;
  }
  const code = typeof env?.returnCode === 'number' ? env.returnCode : res.ok ? 0 : res.status;
  if (opts.idempotent && !outcomeUnknown(res.status, String(env?.returnMessage ?? ''))) {
    settleIdempotencyKey(method, path, opts.body);
  }
  if (!res.ok || code !== 0) {
    const message = typeof env?.returnMessage === 'string' && env.returnMessage ? env.returnMessage : '';
    const data = env?.returnData && typeof env.returnData === 'object' ? env.returnData : {};
    throw new ApiError(
      message || `HTTP_${res.status}`,
      res.status,
      fieldsOf(env?.returnData),
      data as Record<string, unknown>,
    );
  }
  return env?.returnData;
}

let refreshing: Promise<boolean> | null = null;

/**
 * One token refresh (DECISIONS §6): POST /api/v1/auth/refresh with the stored refreshToken, storing both
 * returned tokens. Concurrent 401s share one refresh. Resolves false when there is no refresh token or
 * the refresh failed (then both tokens are removed, SPEC §4).
 */
export function refreshTokens(): Promise<boolean> {
  const refreshToken = local.get(STORAGE_KEYS.refreshToken);
  if (!refreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const data = (await send('POST', '/api/v1/auth/refresh', { body: { refreshToken } }, null)) as {
        accessToken?: string;
        refreshToken?: string;
      } | null;
      if (!data?.accessToken) throw new ApiError('REFRESH_TOKEN_INVALID', 401);
      useSession.getState().refreshed(data.accessToken, data.refreshToken);
      return true;
    } catch {
      local.remove(STORAGE_KEYS.accessToken);
      local.remove(STORAGE_KEYS.refreshToken);
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * The 401 ending of SPEC §4: the tokens go, but instead of a silent hard redirect to / the page stays and
 * says why (app/SessionCheck.tsx: a toast on public pages, the login guard sends guarded ones to /login,
 * which explains it), and the chosen language survives (issue 13).
 */
function expireSession(hadRefreshToken: boolean): void {
  useSession.getState().expire(hadRefreshToken ? 'refreshFailed' : 'expired');
}

/**
 * Calls the member API and returns `returnData` typed as T (the caller's schema decides the shape).
 * A 401 on an authenticated call triggers one refresh and one retry; if that fails too the session ends
 * (SPEC §4). Throws ApiError for every failure.
 */
export async function apiRequest<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const token = local.get(STORAGE_KEYS.accessToken);
  try {
    return (await send(method, path, opts, token)) as T;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401 || !token) throw e;
    const hadRefreshToken = local.get(STORAGE_KEYS.refreshToken) !== null;
    if (!(await refreshTokens())) {
      expireSession(hadRefreshToken);
      throw e;
    }
    try {
      return (await send(method, path, opts, local.get(STORAGE_KEYS.accessToken))) as T;
    } catch (again) {
      if (again instanceof ApiError && again.status === 401) expireSession(true);
      throw again;
    }
  }
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => apiRequest<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...opts, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...opts, body: body ?? {} }),
};
