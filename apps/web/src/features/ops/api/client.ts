import { type ApiClient, ApiError, createApiClient, send, type TokenStore } from '../../../lib/api-client';
import { session } from '../../../lib/storage';
import { OPS_STORAGE_KEYS, useOpsSession } from './session';

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
 * The operator's tokens (sessionStorage, apart from the member's): a failed refresh or a second 401 ends
 * only the operator session (back to /ops/login), never the member's; a 403 rechecks the role.
 */
const opsTokens: TokenStore = {
  accessToken: () => session.get(OPS_STORAGE_KEYS.accessToken),
  refreshToken: () => session.get(OPS_STORAGE_KEYS.refreshToken),
  refreshed: (accessToken, refreshToken) => useOpsSession.getState().setTokens(accessToken, refreshToken),
  refreshFailed: () => undefined,
  sessionEnded: () => useOpsSession.getState().end('expired'),
  failed: recheckOnForbidden,
};

/** The console's API client: the member app's client (lib/api-client.ts) over the operator's tokens. */
export const opsApi: ApiClient = createApiClient(opsTokens);

/** A keyset page (SPEC §3 "List responses"): the contract's one declaration, re-exported for this feature. */
export type { Page } from '@p2p/contract';

/** Rows per page in the console's tables. */
export const OPS_PAGE_SIZE = 20;
