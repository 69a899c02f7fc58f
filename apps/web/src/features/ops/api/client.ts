import { ApiError, type RequestOptions, send } from '../../../lib/api-client';
import { session } from '../../../lib/storage';
import { OPS_STORAGE_KEYS, useOpsSession } from './session';

/**
 * The console's API client: the shell's `send` (bearer, 10 s timeout, envelope -> ApiError) with the
 * operator's own tokens. The member client is not reused as is because its 401 path clears the member
 * session and reloads the member home; here a failed refresh only ends the operator session.
 */

let refreshing: Promise<boolean> | null = null;

/** One refresh with the ops refresh token; concurrent 401s share it. Resolves false when it failed. */
export function refreshOpsTokens(): Promise<boolean> {
  const refreshToken = session.get(OPS_STORAGE_KEYS.refreshToken);
  if (!refreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const data = (await send('POST', '/api/v1/auth/refresh', { body: { refreshToken } }, null)) as {
        accessToken?: string;
        refreshToken?: string;
      } | null;
      if (!data?.accessToken) return false;
      useOpsSession.getState().setTokens(data.accessToken, data.refreshToken);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * A 403 is either a refused action (e.g. suspending oneself) or an account that lost the operator role or
 * was suspended meanwhile. GET /my tells which; only the latter ends the ops session.
 */
function recheckOnForbidden(e: unknown): void {
  if (!(e instanceof ApiError) || e.status !== 403) return;
  const token = session.get(OPS_STORAGE_KEYS.accessToken);
  void send('GET', '/my', {}, token)
    .then((me) => (me as { role?: string } | null)?.role === 'OPERATOR')
    .catch((err: unknown) => !(err instanceof ApiError && err.status === 403))
    .then((stillOperator) => {
      if (!stillOperator) useOpsSession.getState().end('forbidden');
    });
}

/**
 * Calls the operator API (or /my) with the operator's access token and returns `returnData` as T.
 * A 401 triggers one refresh and one retry; when that fails the operator session ends (back to /ops/login).
 * Throws ApiError.
 */
export async function opsRequest<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const token = session.get(OPS_STORAGE_KEYS.accessToken);
  try {
    return (await send(method, path, opts, token)) as T;
  } catch (e) {
    recheckOnForbidden(e);
    if (!(e instanceof ApiError) || e.status !== 401 || !token) throw e;
    if (!(await refreshOpsTokens())) {
      useOpsSession.getState().end('expired');
      throw e;
    }
    try {
      return (await send(method, path, opts, session.get(OPS_STORAGE_KEYS.accessToken))) as T;
    } catch (again) {
      recheckOnForbidden(again);
      if (again instanceof ApiError && again.status === 401) useOpsSession.getState().end('expired');
      throw again;
    }
  }
}

export const opsApi = {
  get: <T>(path: string, query?: RequestOptions['query']) => opsRequest<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    opsRequest<T>('POST', path, { ...opts, body: body ?? {} }),
};

/** A keyset page (SPEC §3 "List responses"): the contract's one declaration, re-exported for this feature. */
export type { Page } from '@p2p/contract';

/** Rows per page in the console's tables. */
export const OPS_PAGE_SIZE = 20;
