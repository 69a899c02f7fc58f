import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from './session';

/** Logout of SPEC §4: local only (no call); drops member data from the query cache and goes home. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    // `loggedOut` makes the login guard of a guarded screen send us home as well, never to /login.
    useSession.getState().clear();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'prices' && q.queryKey[0] !== 'best' });
    await navigate(paths.home.path, { replace: true });
  }, [navigate, queryClient]);
}
