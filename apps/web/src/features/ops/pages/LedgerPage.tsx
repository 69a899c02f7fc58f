import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { useLedgerCheck, useRequestFullCheck } from '../api/ledger';
import { PageTitle } from '../components/Table';
import s from '../ops.module.css';

/**
 * /ops/ledger: the last result of the ledger check job (issue 27, DECISIONS §4: every entry and coin sums to
 * zero, every balance equals its postings, no member account negative, escrow equals what listings and live
 * orders hold): balanced or each open problem, when it was checked, the last full pass and the one running
 * (its progress). The button asks the job for a full pass; the check itself never runs in the request.
 */
export default function LedgerPage() {
  const { t } = useTranslation(['ops']);
  const check = useLedgerCheck();
  const full = useRequestFullCheck();
  const r = check.data;
  const busy = full.isPending || Boolean(r?.fullRequested || r?.fullPass);
  const failure = check.error ?? full.error;
  return (
    <>
      <PageTitle title={t('ops:ledger.title')} sub={t('ops:ledger.sub')}>
        <Button onClick={() => full.mutate()} disabled={busy} data-testid="ledger-run">
          {busy ? t('ops:ledger.running') : t('ops:ledger.run')}
        </Button>
      </PageTitle>
      {failure && (
        <p className={s.failure} role="alert">
          {errorText(failure, 'ops:errors.generic', 'ops')}
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
              <dd data-testid="ledger-checked-at">
                {r.checkedAt ? formatTime(r.checkedAt) : t('ops:ledger.never')}
              </dd>
            </div>
            <div>
              <dt>{t('ops:ledger.lastFullAt')}</dt>
              <dd>{r.lastFullAt ? formatTime(r.lastFullAt) : t('ops:ledger.never')}</dd>
            </div>
            {r.fullPass && (
              <div>
                <dt>{t('ops:ledger.fullProgress')}</dt>
                <dd data-testid="ledger-progress">{Math.floor(r.fullPass.progress * 100)}%</dd>
              </div>
            )}
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
    </>
  );
}
