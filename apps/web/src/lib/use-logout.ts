import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from './session';

/** Logout of SPEC §4: local only (no call); drops member data from the query cache and goes home. */
export function useLogout(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    useSession.getState().clear();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'prices' && q.queryKey[0] !== 'best' });
    navigate(paths.home.path, { replace: true });
  }, [navigate, queryClient]);
}
