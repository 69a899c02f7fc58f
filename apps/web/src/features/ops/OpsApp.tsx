import './i18n';
import { Navigate, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { OpsLayout } from './components/OpsLayout';
import { RequireOperator } from './components/RequireOperator';
import AuditLogPage from './pages/AuditLogPage';
import ChainPage from './pages/ChainPage';
import DepositCreditPage from './pages/DepositCreditPage';
import DisputesPage from './pages/DisputesPage';
import KycPage from './pages/KycPage';
import LedgerPage from './pages/LedgerPage';
import ListingsPage from './pages/ListingsPage';
import MembersPage from './pages/MembersPage';
import OpsLoginPage from './pages/OpsLoginPage';
import OrdersPage from './pages/OrdersPage';
import OverviewPage from './pages/OverviewPage';
import SecurityPage from './pages/SecurityPage';
import WithdrawalsPage from './pages/WithdrawalsPage';
import { opsPaths } from './paths';

/** Path of an ops page relative to /ops (the router mounts the console at /ops/*). */
const rel = (path: string) => path.slice(opsPaths.root.length + 1);

/**
 * The operator console (DECISIONS §1, §8): one lazily loaded chunk mounted at /ops/*, outside the member
 * column, with its own login, guard, layout and toasts (top-right, 5 s).
 */
export default function OpsApp() {
  return (
    <>
      <Routes>
        <Route path={rel(opsPaths.login)} element={<OpsLoginPage />} />
        <Route element={<RequireOperator />}>
          <Route element={<OpsLayout />}>
            <Route index element={<OverviewPage />} />
            <Route path={rel(opsPaths.listings)} element={<ListingsPage />} />
            <Route path={rel(opsPaths.withdrawals)} element={<WithdrawalsPage />} />
            <Route path={rel(opsPaths.deposits)} element={<DepositCreditPage />} />
            <Route path={rel(opsPaths.chain)} element={<ChainPage />} />
            <Route path={rel(opsPaths.orders)} element={<OrdersPage />} />
            <Route path={rel(opsPaths.disputes)} element={<DisputesPage />} />
            <Route path={rel(opsPaths.members)} element={<MembersPage />} />
            <Route path={rel(opsPaths.kyc)} element={<KycPage />} />
            <Route path={rel(opsPaths.auditLog)} element={<AuditLogPage />} />
            <Route path={rel(opsPaths.ledger)} element={<LedgerPage />} />
            <Route path={rel(opsPaths.security)} element={<SecurityPage />} />
            <Route path="*" element={<Navigate to={opsPaths.root} replace />} />
          </Route>
        </Route>
      </Routes>
      <ToastContainer position="top-right" autoClose={5000} hideProgressBar newestOnTop closeOnClick />
    </>
  );
}
