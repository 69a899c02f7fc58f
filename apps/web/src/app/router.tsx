import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import HomePage from '../features/home/HomePage';
import { loadMemberNamespaces } from '../i18n';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

type PageModule = Promise<{ default: ComponentType }>;

/** A page standing in for one whose chunk failed to load: rendering it throws `error` to the route's boundary. */
function ChunkFailed({ error }: { error: unknown }): null {
  throw error;
}

/**
 * A lazily loaded page: each screen is its own chunk (SPEC §2 routes, DESIGN "Layout"), shown once its
 * chunk and the interface texts beyond the landing's (i18n/index.ts) are there. A page that throws (or whose
 * chunk fails) shows RouteError in its place, inside the layout.
 */
function page(path: string, load: () => PageModule): RouteObject {
  return {
    path,
    errorElement: <RouteError />,
    lazy: async () => {
      try {
        const [mod] = await Promise.all([load(), loadMemberNamespaces()]);
        return { Component: mod.default };
      } catch (error) {
        // React Router 7 renders nothing for a route whose lazy() rejected (a blank screen, seen with the
        // chunk's request aborted): a chunk that did not arrive becomes a page that throws, which the
        // route's errorElement (RouteError) shows.
        return { element: <ChunkFailed error={error} /> };
      }
    },
  };
}

type Guard = 'RedirectIfAuthed' | 'RequireAgreements' | 'RequireAuth' | 'RequireSignupCompleted';

/**
 * A layout route whose element is one of the guards (app/guards.tsx). The guards only ever wrap lazy pages,
 * so they load with the first page that needs one, not with the landing page (DECISIONS §16).
 */
function guarded(guard: Guard, children: RouteObject[]): RouteObject {
  return {
    lazy: async () => {
      try {
        return { Component: (await import('./guards'))[guard] };
      } catch (error) {
        return { element: <ChunkFailed error={error} /> };
      }
    },
    errorElement: <RouteError />,
    children,
  };
}

const publicRoutes: RouteObject[] = [
  // The landing page is in the entry chunk: its first render replaces the static hero of index.html at once.
  { path: paths.home.path, Component: HomePage, errorElement: <RouteError /> },
  page(paths.login.path, () => import('../features/auth/pages/LoginPage')),
  page(paths.findId.path, () => import('../features/auth/pages/FindIdPage')),
  page(paths.findPw.path, () => import('../features/auth/pages/FindPwPage')),
  page(paths.contact.path, () => import('../features/auth/pages/ContactPage')),
  page(paths.reserves.path, () => import('../features/reserves/ReservesPage')),
  guarded('RedirectIfAuthed', [
    page(paths.agreement.path, () => import('../features/auth/pages/AgreementPage')),
  ]),
  page(paths.verify.path, () => import('../features/trade/pages/VerifyPage')),
  guarded('RequireAgreements', [page(paths.signup.path, () => import('../features/auth/pages/SignupPage'))]),
  guarded('RequireSignupCompleted', [
    page(paths.complete.path, () => import('../features/auth/pages/CompletePage')),
  ]),
];

const guardedRoutes: RouteObject[] = [
  page(paths.myInfo.path, () => import('../features/account/pages/MyInfoPage')),
  page(paths.account.path, () => import('../features/account/pages/AccountPage')),
  page(paths.verification.path, () => import('../features/account/pages/VerificationPage')),
  page(paths.modify.path, () => import('../features/account/pages/ModifyPage')),
  page(paths.transaction.path, () => import('../features/trade/pages/TransactionPage')),
  page(paths.purchase.path, () => import('../features/trade/pages/PurchasePage')),
  page(paths.sell.path, () => import('../features/trade/pages/SellPage')),
  page(paths.requestSuccessfully.path, () => import('../features/trade/pages/RequestSuccessfullyPage')),
  page(paths.viewDetails.path, () => import('../features/trade/pages/ViewDetailsPage')),
  page(paths.proceed.path, () => import('../features/trade/pages/ReleaseEscrowPage')),
  page(paths.createWallet.path, () => import('../features/wallet/pages/CreateWalletPage')),
  page(paths.wallet.path, () => import('../features/wallet/pages/WalletPage')),
  page(paths.withdraw.path, () => import('../features/wallet/pages/WithdrawPage')),
  page(paths.deposit.path, () => import('../features/wallet/pages/DepositAddressPage')),
  page(paths.notifications.path, () => import('../features/notifications/NotificationsPage')),
];

export const routes: RouteObject[] = [
  // Operator console (DECISIONS §1): its own lazy chunk and layout, outside the member column.
  { ...page('/ops/*', () => import('../features/ops/OpsApp')), HydrateFallback: () => null },
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // The first lazy page is loading: keep the empty column rather than a flash of anything.
    HydrateFallback: () => null,
    children: [
      ...publicRoutes,
      guarded('RequireAuth', guardedRoutes),
      { path: '*', element: <Navigate to={paths.home.path} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
