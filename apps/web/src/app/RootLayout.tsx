import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { paths } from '../config/paths';
import { useLiveEvents } from '../features/notifications/use-live-events';
import { useSession } from '../lib/session';
import { toastPlacement } from '../lib/toast';

const SIGNUP_PATHS: string[] = [paths.agreement.path, paths.signup.path, paths.complete.path];

/** The app column, toasts placed for the current screen, and scroll-to-top on every route change (SPEC §2). */
export function RootLayout() {
  const { pathname } = useLocation();
  useLiveEvents();
  useEffect(() => {
    // Runs for every new pathname (SPEC §2: every route change scrolls to the top).
    if (pathname) window.scrollTo(0, 0);
  }, [pathname]);
  useEffect(() => {
    // Signup step state lives only while the member is inside the signup flow (SPEC §4).
    const inSignup = SIGNUP_PATHS.includes(pathname);
    const st = useSession.getState();
    if (!inSignup && (st.isSignupCompleted || st.agreements.service || st.agreements.privacy))
      st.resetSignup();
  }, [pathname]);
  const placement = toastPlacement(pathname);
  return (
    <div className="app-column">
      <Outlet />
      <ToastContainer
        position={placement.position}
        autoClose={placement.autoClose}
        hideProgressBar
        newestOnTop
        closeOnClick
        theme="light"
      />
    </div>
  );
}
