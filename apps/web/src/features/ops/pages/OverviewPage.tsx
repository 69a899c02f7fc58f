import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import { useOpsSummary } from '../api/summary';
import { useTotpStatus } from '../api/totp';
import { PageTitle } from '../components/Table';
import s from '../ops.module.css';
import { type OpsPathKey, opsPaths } from '../paths';

const CARDS: {
  key: 'pendingListings' | 'pendingWithdrawals' | 'requestedOrders' | 'members' | 'suspendedMembers';
  to: OpsPathKey;
  urgent: boolean;
}[] = [
  { key: 'pendingListings', to: 'listings', urgent: true },
  { key: 'pendingWithdrawals', to: 'withdrawals', urgent: true },
  { key: 'requestedOrders', to: 'orders', urgent: false },
  { key: 'members', to: 'members', urgent: false },
  { key: 'suspendedMembers', to: 'members', urgent: false },
];

/**
 * /ops: what waits for an operator (GET /ops/api/v1/summary), each count linking to its queue; a nudge to the
 * Security page while the operator's two-step sign-in is off (DECISIONS §13).
 */
export default function OverviewPage() {
  const { t } = useTranslation(['ops', 'common']);
  const summary = useOpsSummary();
  const totp = useTotpStatus();
  return (
    <>
      <PageTitle title={t('ops:overview.title')} sub={t('ops:overview.sub')}>
        <Button variant="outline" size="small" onClick={() => void summary.refetch()}>
          {t('ops:actions.refresh')}
        </Button>
      </PageTitle>
      {totp.data && !totp.data.enrolled && (
        <p className={s.nudge} data-testid="totp-nudge">
          {t('ops:overview.totpNudge')} <Link to={opsPaths.security}>{t('ops:overview.totpNudgeLink')}</Link>
        </p>
      )}
      {summary.isError && (
        <p className={s.failure} role="alert">
          {errorText(summary.error, 'ops:errors.generic', 'ops')}
        </p>
      )}
      <div className={s.cards}>
        {CARDS.map((c) => {
          const value = summary.data?.[c.key];
          const hot = c.urgent && Boolean(value);
          const search = c.key === 'requestedOrders' ? '?status=REQUESTED' : '';
          return (
            <Link
              key={c.key}
              to={`${opsPaths[c.to]}${search}`}
              className={`${cardClassName} ${s.statCard} ${hot ? s.statCardHot : ''}`}
              data-testid={`summary-${c.key}`}
            >
              <span className={s.statLabel}>{t(`ops:overview.${c.key}`)}</span>
              <span className={s.statValue}>{value === undefined ? '–' : value.toLocaleString('en-US')}</span>
            </Link>
          );
        })}
      </div>
      <p className={s.muted}>
        <Link to={opsPaths.ledger}>{t('ops:overview.ledgerHint')}</Link>
      </p>
    </>
  );
}
