import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { useLedgerCheck } from '../api/ledger';
import { PageTitle } from '../components/Table';
import s from '../ops.module.css';

/**
 * /ops/ledger: runs the ledger invariants (DECISIONS §4: every coin sums to zero, no member account
 * negative, escrow equals what listings and live orders hold) and shows the result: balanced, or each
 * problem found, with the counts checked.
 */
export default function LedgerPage() {
  const { t } = useTranslation(['ops']);
  const [started, setStarted] = useState(false);
  const check = useLedgerCheck(started);
  const run = () => (started ? void check.refetch() : setStarted(true));
  const r = check.data;
  return (
    <>
      <PageTitle title={t('ops:ledger.title')} sub={t('ops:ledger.sub')}>
        <Button onClick={run} disabled={check.isFetching} data-testid="ledger-run">
          {check.isFetching ? t('ops:ledger.running') : t('ops:ledger.run')}
        </Button>
      </PageTitle>
      {check.isError && (
        <p className={s.failure} role="alert">
          {errorText(check.error, 'ops:errors.generic', 'ops')}
        </p>
      )}
      {r && (
        <Card className={s.ledgerCard} data-testid="ledger-result" data-ok={r.ok}>
          <div className={`${s.ledgerVerdict} ${r.ok ? s.verdictOk : s.verdictBad}`}>
            {r.ok ? t('ops:ledger.ok') : t('ops:ledger.problems', { count: r.problems.length })}
          </div>
          <dl className={s.counts}>
            <div>
              <dt>{t('ops:ledger.accounts')}</dt>
              <dd data-testid="ledger-accounts">{r.counts.accounts}</dd>
            </div>
            <div>
              <dt>{t('ops:ledger.entries')}</dt>
              <dd>{r.counts.entries}</dd>
            </div>
            <div>
              <dt>{t('ops:ledger.postings')}</dt>
              <dd>{r.counts.postings}</dd>
            </div>
            <div>
              <dt>{t('ops:ledger.checkedAt')}</dt>
              <dd>{formatTime(r.checkedAt)}</dd>
            </div>
          </dl>
          {r.problems.length > 0 && (
            <ul className={s.problems} data-testid="ledger-problems">
              {r.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </Card>
      )}
      {!r && !check.isFetching && <p className={s.muted}>{t('ops:ledger.notRun')}</p>}
    </>
  );
}
