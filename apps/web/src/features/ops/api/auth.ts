import type { Profile, TokenPair } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, send } from '../../../lib/api-client';
import { session } from '../../../lib/storage';
import { opsApi } from './client';
import { opsQueryRoot } from './query-root';
import { OPS_STORAGE_KEYS, useOpsSession } from './session';

/** Error code of a login by an account whose role is not OPERATOR (localized as ops:errors.NOT_OPERATOR). */
export const NOT_OPERATOR = 'NOT_OPERATOR';

/**
 * Operator login (DECISIONS §1, §6, §13): POST /api/v1/auth/login with the TOTP code when one is given,
 * then GET /my with the new access token. Only when the role is OPERATOR are the tokens kept (as the ops
 * session); a member's tokens are dropped at once and ApiError NOT_OPERATOR is thrown. Other failures throw
 * the API's ApiError (TOTP_REQUIRED: this operator must add a code; TOTP_INVALID: the code was refused).
 */
export async function opsLogin(loginId: string, password: string, totpCode?: string): Promise<Profile> {
  const body = totpCode ? { loginId, password, totpCode } : { loginId, password };
  const pair = (await send('POST', '/api/v1/auth/login', { body }, null)) as TokenPair;
  const me = (await send('GET', '/my', {}, pair.accessToken)) as Profile;
  if (me.role !== 'OPERATOR') {
    // The member's session was opened by this login: end it on the server too, not only forget it.
    await revokeSession(pair.refreshToken, pair.accessToken);
    throw new ApiError(NOT_OPERATOR, 403);
  }
  useOpsSession.getState().setTokens(pair.accessToken, pair.refreshToken);
  return me;
}

/** POST /api/v1/auth/logout (DECISIONS §13); a failure is ignored, the caller forgets the tokens anyway. */
async function revokeSession(refreshToken: string, accessToken: string | null): Promise<void> {
  await send('POST', '/api/v1/auth/logout', { body: { refreshToken } }, accessToken).catch(() => undefined);
}

/**
 * Console logout: removes the ops tokens at once (the screen leaves the console in the same tick, as before)
 * and asks the server to revoke that session in the background (so a copied ops token dies with it); a
 * failure of that call changes nothing on this side.
 */
export function opsLogout(): void {
  const refreshToken = session.get(OPS_STORAGE_KEYS.refreshToken);
  const accessToken = useOpsSession.getState().accessToken;
  useOpsSession.getState().end(null);
  if (refreshToken) void revokeSession(refreshToken, accessToken);
}

/** GET /my with the ops token, cached per token (a new login is a new profile); disabled without one. */
export const opsMeQueryOptions = (token: string | null) =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'me', token],
    queryFn: () => opsApi.get<Profile>('/my'),
    enabled: Boolean(token),
    retry: false,
    staleTime: 60_000,
  });

/** The signed-in operator's profile. */
export function useOpsMe() {
  return useQuery(opsMeQueryOptions(useOpsSession((s) => s.accessToken)));
}
