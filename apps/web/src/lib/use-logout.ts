import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { LOGOUT_KEPT_QUERY_ROOTS } from '../app/query-client';
import { paths } from '../config/paths';
import { send } from './api-client';
import { useSession } from './session';
import { local, STORAGE_KEYS } from './storage';

// The server call must not hold the member on the page when the network is slow or gone.
const LOGOUT_CALL_MS = 3000;

/**
 * Logout (SPEC §4 and DECISIONS §13): asks the server to revoke this session (`POST /api/v1/auth/logout`, so
 * a copied token dies with it), then does SPEC §4's local logout whether or not that call succeeded: drops
 * the tokens and member data from the query cache and goes home.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    const refreshToken = local.get(STORAGE_KEYS.refreshToken);
    if (refreshToken) {
      await send(
        'POST',
        '/api/v1/auth/logout',
        { body: { refreshToken }, signal: AbortSignal.timeout(LOGOUT_CALL_MS) },
        useSession.getState().accessToken,
      ).catch(() => undefined);
    }
    // `loggedOut` makes the login guard of a guarded screen send us home as well, never to /login.
    useSession.getState().clear();
    queryClient.removeQueries({ predicate: (q) => !LOGOUT_KEPT_QUERY_ROOTS.includes(q.queryKey[0]) });
    await navigate(paths.home.path, { replace: true });
  }, [navigate, queryClient]);
}
