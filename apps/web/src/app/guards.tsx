import { LIMITS } from '@p2p/contract/limits.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { z } from 'zod';
import { Page } from '../components/layout/Page';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { FullScreenLoader } from '../components/ui/FullScreenLoader';
import { paths } from '../config/paths';
import { ApiError } from '../lib/api-client';
import { useMe } from '../lib/me';
import { clearStoredSession, useSession } from '../lib/session';
import { readJson, STORAGE_KEYS } from '../lib/storage';

function hasStoredProfile(): boolean {
  return readJson(STORAGE_KEYS.userInfo) !== null;
}

/** Where the login guard sent the visitor from (carried in navigation state to /login). */
const fromState = z.object({
  from: z.object({ pathname: z.string(), search: z.string(), hash: z.string(), state: z.unknown() }),
});
export type FromState = z.infer<typeof fromState>;

/** The page the login guard sent the visitor from, when /login's navigation state carries one. */
export function loginFromOf(state: unknown): FromState['from'] | undefined {
  return fromState.safeParse(state).data?.from;
}

/** True once `ms` have passed since `active` became true (reset when it turns false). */
function useElapsed(active: boolean, ms: number): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    setPassed(false);
    if (!active) return;
    const id = window.setTimeout(() => setPassed(true), ms);
    return () => window.clearTimeout(id);
  }, [active, ms]);
  return passed;
}

/** A refusal of the member (401 after the refresh, or a suspended account): the session is over. */
function isRefusal(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403);
}

/**
 * The login guard (SPEC §2, §4): no access token -> /login carrying the requested location; with a token,
 * a full-screen loader while GET /my validates it; a refusal logs out and goes to /login; a session that
 * ended under the member's feet (401 after a failed refresh) goes to /. When the profile
 * cannot be loaded (network, server) or the start-up check outlasts the rehydration timeout of SPEC §9
 * (5000 ms), the screen says 'failed to load user info' with a retry instead of spinning on.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const location = useLocation();
  const token = useSession((s) => s.accessToken);
  const loggedOut = useSession((s) => s.loggedOut);
  const ended = useSession((s) => s.ended);
  const me = useMe();
  const from: FromState = {
    from: {
      pathname: location.pathname,
      search: location.search,
      hash: location.hash,
      state: location.state,
    },
  };

  const refused = me.isError && isRefusal(me.error);
  const waiting = Boolean(token) && !me.data && !hasStoredProfile();
  const slow = useElapsed(waiting && me.isFetching, LIMITS.rehydrateTimeoutMs);

  useEffect(() => {
    if (refused) {
      clearStoredSession();
      useSession.setState({ accessToken: null });
    }
  }, [refused]);

  // Logging out on a guarded screen goes home (the router may still show this screen for a moment), and so
  // does a session the server ended (SPEC §4: a 401 the refresh could not heal goes to /, a toast says why).
  if (!token && (loggedOut || ended)) return <Navigate to={paths.home.path} replace />;
  if (!token || refused) return <Navigate to={paths.login.path} replace state={from} />;
  // A reload with the profile stored (userInfo, SPEC §3) shows the screen at once while GET /my checks the
  // token in the background; a refusal still logs out (above). Only a first sign-in waits here.
  if (waiting && (me.isError || slow)) {
    return (
      <Page title={t('common:appName')}>
        <Card>
          <p role="alert" data-testid="profile-failed" style={{ margin: '0 0 12px' }}>
            {t('common:auth.profileFailed')}
          </p>
          <Button block onClick={() => void me.refetch()} data-testid="profile-retry">
            {t('common:actions.retry')}
          </Button>
        </Card>
      </Page>
    );
  }
  if (waiting) return <FullScreenLoader message={t('common:auth.checking')} />;
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
