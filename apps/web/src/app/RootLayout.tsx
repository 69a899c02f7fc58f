import { LIMITS } from '@p2p/contract/limits.ts';
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { isTradingPath, paths } from '../config/paths';
import { useSession } from '../lib/session';
import { useSessionCheck } from '../lib/use-session-check';
import { useToastHost } from './toast-host';

// The live-event stream (DECISIONS §12) of a signed-in member, loaded after the first render.
const LiveEvents = lazy(() =>
  import('../components/layout/MemberLinks').then((m) => ({ default: m.LiveEvents })),
);
const ToastContainer = lazy(() => import('react-toastify').then((m) => ({ default: m.ToastContainer })));

const SIGNUP_PATHS: string[] = [paths.agreement.path, paths.signup.path, paths.complete.path];

/** The app column, toasts placed for the current screen, and scroll-to-top on every route change (SPEC §2). */
export function RootLayout() {
  const { pathname } = useLocation();
  const signedIn = useSession((st) => Boolean(st.accessToken));
  useSessionCheck();
  useEffect(() => {
    // Runs for every new pathname (SPEC §2: every route change scrolls to the top).
    if (pathname) window.scrollTo(0, 0);
  }, [pathname]);
  const toastsLoaded = useToastHost((st) => st.wanted) || pathname !== paths.home.path;
  useEffect(() => {
    // The toast of the screen left behind does not follow the member.
    if (pathname && toastsLoaded) void import('../lib/toast').then((m) => m.clearToastsOnNavigation());
  }, [pathname, toastsLoaded]);
  useEffect(() => {
    // Signup step state lives only while the member is inside the signup flow (SPEC §4).
    const inSignup = SIGNUP_PATHS.includes(pathname);
    const st = useSession.getState();
    if (!inSignup && (st.isSignupCompleted || st.agreements.service || st.agreements.privacy))
      st.resetSignup();
  }, [pathname]);
  // lib/toast's placement (SPEC §9), repeated here so the landing page does not load react-toastify.
  const trading = isTradingPath(pathname);
  return (
    <div className="app-column">
      <Outlet />
      <Suspense fallback={null}>{signedIn && <LiveEvents />}</Suspense>
      <Suspense fallback={null}>
        {toastsLoaded && (
          <ToastContainer
            position={trading ? 'bottom-center' : 'top-right'}
            autoClose={trading ? LIMITS.toastTradingMs : LIMITS.toastDefaultMs}
            hideProgressBar
            newestOnTop
            closeOnClick
            theme="light"
          />
        )}
      </Suspense>
    </div>
  );
}
