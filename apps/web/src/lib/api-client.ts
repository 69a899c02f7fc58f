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
 * One HTTP exchange: bearer, 10 s timeout, Idempotency-Key, envelope unwrapping. Throws ApiError. The
 * clients of createApiClient wrap it; called alone for exchanges outside a session's 401 policy (login
 * with a token not stored yet, logout, the refresh itself).
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

/** A refreshed token pair as POST /api/v1/auth/refresh answers it. */
interface RefreshedPair {
  accessToken?: string;
  refreshToken?: string;
}

/**
 * Where one client keeps its tokens and what it does when a session ends: the member app (localStorage and
 * the session store, SPEC §4) and the operator console (sessionStorage, DECISIONS §13) each give one.
 */
export interface TokenStore {
  accessToken(): string | null;
  refreshToken(): string | null;
  /** A refresh answered a new pair: store it. */
  refreshed(accessToken: string, refreshToken?: string): void;
  /** The refresh call was refused or failed (also when called alone, e.g. by the event stream). */
  refreshFailed(): void;
  /** A 401 the refresh could not heal; `hadRefreshToken` tells a spent token from a refused refresh. */
  sessionEnded(hadRefreshToken: boolean): void;
  /** Sees every failed call before it is thrown (the console rechecks its role on a 403). */
  failed?(err: unknown): void;
}

/** One API client: the shared `send` with its own tokens and the refresh-on-401 policy of SPEC §4. */
export interface ApiClient {
  /** Calls the API and returns `returnData` typed as T (the caller's schema decides the shape). */
  request<T>(method: string, path: string, opts?: RequestOptions): Promise<T>;
  /** One token refresh; concurrent callers share it. Resolves false when there is none or it failed. */
  refreshTokens(): Promise<boolean>;
  get<T>(path: string, opts?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
}

/**
 * Makes a client over `store` (DECISIONS §6, SPEC §4): a 401 on an authenticated call triggers one refresh
 * (POST /api/v1/auth/refresh, concurrent 401s share it) and one retry; if either fails the store's
 * `sessionEnded` runs. Every failure throws ApiError.
 */
export function createApiClient(store: TokenStore): ApiClient {
  let refreshing: Promise<boolean> | null = null;

  function refreshTokens(): Promise<boolean> {
    const refreshToken = store.refreshToken();
    if (!refreshToken) return Promise.resolve(false);
    refreshing ??= (async () => {
      try {
        const data = (await send('POST', '/api/v1/auth/refresh', { body: { refreshToken } }, null)) as
          | RefreshedPair
          | null
          | undefined;
        if (!data?.accessToken) throw new ApiError('REFRESH_TOKEN_INVALID', 401);
        store.refreshed(data.accessToken, data.refreshToken);
        return true;
      } catch {
        store.refreshFailed();
        return false;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  async function attempt(method: string, path: string, opts: RequestOptions, token: string | null) {
    try {
      return await send(method, path, opts, token);
    } catch (e) {
      store.failed?.(e);
      throw e;
    }
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const token = store.accessToken();
    try {
      return (await attempt(method, path, opts, token)) as T;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 401 || !token) throw e;
      const hadRefreshToken = store.refreshToken() !== null;
      // Another call's refresh already stored a new pair while this one was in flight: retry with it rather
      // than spend the rotated refresh token on a second refresh (and a second profile refetch).
      const current = store.accessToken();
      const renewedMeanwhile = current !== null && current !== token;
      if (!renewedMeanwhile && !(await refreshTokens())) {
        store.sessionEnded(hadRefreshToken);
        throw e;
      }
      try {
        return (await attempt(method, path, opts, store.accessToken())) as T;
      } catch (again) {
        if (again instanceof ApiError && again.status === 401) store.sessionEnded(true);
        throw again;
      }
    }
  }

  return {
    request,
    refreshTokens,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body: body ?? {} }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body: body ?? {} }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body: body ?? {} }),
  };
}

/**
 * The member's tokens (localStorage, mirrored by the session store). A failed refresh removes both tokens
 * (SPEC §4); the 401 ending keeps the page and says why instead of a silent hard redirect to /
 * (app/SessionCheck: a toast on public pages, the login guard sends guarded ones to /login), and the chosen
 * language survives.
 */
const memberTokens: TokenStore = {
  accessToken: () => local.get(STORAGE_KEYS.accessToken),
  refreshToken: () => local.get(STORAGE_KEYS.refreshToken),
  refreshed: (accessToken, refreshToken) => useSession.getState().refreshed(accessToken, refreshToken),
  refreshFailed: () => {
    local.remove(STORAGE_KEYS.accessToken);
    local.remove(STORAGE_KEYS.refreshToken);
  },
  sessionEnded: (hadRefreshToken) =>
    useSession.getState().expire(hadRefreshToken ? 'refreshFailed' : 'expired'),
};

/** The member API client (SPEC §7). */
export const api: ApiClient = createApiClient(memberTokens);
