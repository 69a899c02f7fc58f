import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenLoader } from '../components/ui/FullScreenLoader';
import { paths } from '../config/paths';
import { useMe } from '../lib/me';
import { clearStoredSession, useSession } from '../lib/session';

/** Where the login guard sent the visitor from (carried in navigation state to /login). */
export interface FromState {
  from?: { pathname: string; search: string; hash: string; state?: unknown };
}

/**
 * The login guard (SPEC §2, §4): no access token -> /login carrying the requested location; with a token,
 * a full-screen loader while GET /my validates it; a failed check logs out and goes to /login.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const location = useLocation();
  const token = useSession((s) => s.accessToken);
  const loggedOut = useSession((s) => s.loggedOut);
  const me = useMe();
  const from: FromState = {
    from: {
      pathname: location.pathname,
      search: location.search,
      hash: location.hash,
      state: location.state,
    },
  };

  useEffect(() => {
    if (me.isError) {
      clearStoredSession();
      useSession.setState({ accessToken: null });
    }
  }, [me.isError]);

  // Logging out on a guarded screen goes home (the router may still show this screen for a moment).
  if (!token && loggedOut) return <Navigate to={paths.home.path} replace />;
  if (!token || me.isError) return <Navigate to={paths.login.path} replace state={from} />;
  if (!me.data) return <FullScreenLoader message={t('common:auth.checking')} />;
  return <Outlet />;
}

/** Signup steps (SPEC §4): logged-in members go home; /signup needs both consents. */
export function RequireAgreements() {
  const token = useSession((s) => s.accessToken);
  const agreements = useSession((s) => s.agreements);
  if (token) return <Navigate to={paths.home.path} replace />;
  if (!agreements.service || !agreements.privacy) return <Navigate to={paths.agreement.path} replace />;
  return <Outlet />;
}

/** /complete is reachable only right after signup (SPEC §2). */
export function RequireSignupCompleted() {
  const done = useSession((s) => s.isSignupCompleted);
  if (!done) return <Navigate to={paths.home.path} replace />;
  return <Outlet />;
}

/** Logged-in members skip the signup consent step. */
export function RedirectIfAuthed() {
  const token = useSession((s) => s.accessToken);
  if (token) return <Navigate to={paths.home.path} replace />;
  return <Outlet />;
}
