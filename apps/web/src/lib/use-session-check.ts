import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PUBLIC_QUERY_ROOTS } from '../app/query-client';
import { landingToast } from '../app/toast-host';
import { paths } from '../config/paths';
import { meQueryOptions, useMe } from './me';
import { useSession } from './session';

/**
 * SPEC §4 on every page, not only behind the guard: with a stored token GET /my checks it at app start, so
 * a dead token turns the public header back to 로그인/회원가입; after a successful refresh the profile is
 * fetched again; when the server ends the session the member is told why in a toast, on / where the guard
 * sends a guarded screen (SPEC §4: a 401 after a failed refresh goes to /), or on the public page itself.
 */
export function useSessionCheck(): void {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  useMe();
  const ended = useSession((s) => s.ended);

  // Subscribed, not an effect: the refetch is asked for at the moment the new pair is stored, so a profile
  // load that met the 401 itself (still in flight, retried with the new token) is joined rather than
  // doubled, and a profile already loaded is fetched again. An effect ran after the next render, by which
  // time the retry might or might not have landed, so the profile was fetched two or three times.
  useEffect(
    () =>
      useSession.subscribe((st, prev) => {
        if (st.refreshes === prev.refreshes) return;
        void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }, { cancelRefetch: false });
      }),
    [queryClient],
  );

  // Read when a session ends, not a reason to run again: the page and language of that moment.
  const current = useRef({ pathname, t });
  current.current = { pathname, t };

  // Once per ending, on the page where it happened.
  useEffect(() => {
    if (!ended) return;
    queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERY_ROOTS.includes(q.queryKey[0]) });
    const { pathname: at, t: text } = current.current;
    if (at === paths.login.path) return;
    void landingToast(
      'error',
      ended === 'refreshFailed' ? text('common:errors.REFRESH_TOKEN_INVALID') : text('common:auth.expired'),
    );
  }, [ended, queryClient]);
}
