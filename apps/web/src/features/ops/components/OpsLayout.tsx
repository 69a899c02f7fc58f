import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSelector } from '../../../components/layout/LanguageSelector';
import { Button } from '../../../components/ui/Button';
import { opsLogout, useOpsMe } from '../api/auth';
import { opsQueryRoot } from '../api/query-root';
import { useOpsSummary } from '../api/summary';
import { useOpsLiveEvents } from '../hooks/use-ops-live-events';
import s from '../ops.module.css';
import { type OpsPathKey, opsPaths } from '../paths';
import type { OpsFromState } from './RequireOperator';

type SummaryKey = 'pendingListings' | 'pendingWithdrawals' | 'requestedOrders';

const NAV: { key: OpsPathKey; count?: SummaryKey }[] = [
  { key: 'root' },
  { key: 'listings', count: 'pendingListings' },
  { key: 'withdrawals', count: 'pendingWithdrawals' },
  { key: 'deposits' },
  { key: 'chain' },
  { key: 'orders', count: 'requestedOrders' },
  { key: 'disputes' },
  { key: 'members' },
  { key: 'kyc' },
  { key: 'auditLog' },
  { key: 'ledger' },
  { key: 'security' },
];

/**
 * The console frame: a side navigation with what waits (counts from the summary) on a laptop, a top bar
 * with a sideways-scrolling navigation on a phone; the operator's login ID, language and logout. It keeps
 * the live event stream open, so counts and queues update without a reload.
 */
export function OpsLayout() {
  const { t } = useTranslation(['ops']);
  const me = useOpsMe();
  const summary = useOpsSummary();
  useOpsLiveEvents();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  // The login brings the operator back to this page. Said here rather than left to RequireOperator's redirect
  // racing this navigation: which of the two wins depends on the renderer's scheduling (Preact, DECISIONS §16).
  const logout = () => {
    const state: OpsFromState = { from: `${location.pathname}${location.search}` };
    opsLogout();
    queryClient.removeQueries({ queryKey: opsQueryRoot });
    navigate(opsPaths.login, { replace: true, state });
  };

  return (
    <div className={s.shell}>
      <aside className={s.sidebar}>
        <div className={s.brand}>
          <span className={s.brandMark}>OP</span>
          <span>{t('ops:brand')}</span>
        </div>
        <nav className={s.nav} aria-label={t('ops:nav.label')}>
          {NAV.map((item) => {
            const count = item.count ? summary.data?.[item.count] : undefined;
            return (
              <NavLink
                key={item.key}
                to={opsPaths[item.key]}
                end={item.key === 'root'}
                className={({ isActive }) => `${s.navItem} ${isActive ? s.navItemActive : ''}`}
                data-testid={`ops-nav-${item.key}`}
              >
                <span>{t(`ops:nav.${item.key}`)}</span>
                {count ? <span className={s.navCount}>{count}</span> : null}
              </NavLink>
            );
          })}
        </nav>
        <div className={s.account}>
          <span className={s.operator} data-testid="ops-operator">
            {me.data?.loginId}
          </span>
          <LanguageSelector />
          <Button variant="outline" size="small" onClick={logout} data-testid="ops-logout">
            {t('ops:nav.logout')}
          </Button>
        </div>
      </aside>
      <main className={s.main}>
        <Outlet />
      </main>
    </div>
  );
}
