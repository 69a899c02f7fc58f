import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { toastPlacement } from '../lib/toast';

/** The app column, toasts placed for the current screen, and scroll-to-top on every route change (SPEC §2). */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    // Runs for every new pathname (SPEC §2: every route change scrolls to the top).
    if (pathname) window.scrollTo(0, 0);
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
