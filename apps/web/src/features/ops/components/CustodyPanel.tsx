import { COINS, type OpsCustodyCoin } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { errorText } from '../../../lib/errors';
import { useOpsCustody } from '../api/withdrawals';
import s from '../ops.module.css';
import { Mono } from './Table';

const orDash = (v: string | null, coin: string) => (v === null ? '–' : `${v} ${coin}`);

/** The cold share line: "83.50% / min 80%", in the warning colour when breached (DECISIONS §18). */
function ColdShare({ c }: { c: OpsCustodyCoin }) {
  const { t } = useTranslation(['ops']);
  const text =
    c.coldSharePct === null
      ? c.coldShareBreach
        ? t('ops:custody.shareUnknown')
        : '–'
      : t('ops:custody.shareOf', { pct: c.coldSharePct, min: c.coldShareMinPct });
  return (
    <dd
      className={c.coldShareBreach ? s.custodyBreach : undefined}
      data-testid="custody-share"
      data-breach={c.coldShareBreach ? 'yes' : 'no'}
    >
      {text}
      {c.coldShareBreach && <span className={s.custodyBreachNote}>{t('ops:custody.belowMin')}</span>}
    </dd>
  );
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function CustodyCard({ c }: { c: OpsCustodyCoin }) {
  const { t } = useTranslation(['ops']);
  const coin = c.coinCode;
  const waiting = c.withdrawals;
  return (
    <section
      className={s.chainCard}
      aria-label={coin}
      data-testid={`custody-${coin}`}
      data-breach={c.coldShareBreach ? 'yes' : 'no'}
    >
      <header className={s.chainCardHead}>
        <strong className={s.chainCoin}>{coin}</strong>
        <span className={`${s.badge} ${s[`badge_${c.paidOnChain ? 'ok' : 'muted'}`] ?? ''}`}>
          {c.paidOnChain ? t('ops:custody.auto') : t('ops:custody.manual')}
        </span>
      </header>
      <dl className={s.chainFacts}>
        <Fact label={t('ops:custody.hotBalance')} testId="custody-hot">
          {orDash(c.hotBalance, coin)}
        </Fact>
        <Fact label={t('ops:custody.ledgerHoldings')} testId="custody-ledger">
          {c.ledgerHoldings} {coin}
        </Fact>
        {c.hotAddresses.map((a) => (
          <Fact key={a} label={t('ops:custody.hotAddress')}>
            <Mono>{a}</Mono>
          </Fact>
        ))}
        <Fact label={t('ops:custody.coldAddress')} testId="custody-cold-address">
          {c.coldAddress ? <Mono>{c.coldAddress}</Mono> : t('ops:custody.noCold')}
        </Fact>
        <Fact label={t('ops:custody.coldBalance')}>{orDash(c.coldBalance, coin)}</Fact>
        <Fact label={t('ops:custody.liabilities')} testId="custody-liabilities">
          {c.liabilities} {coin}
        </Fact>
        <div>
          <dt>{t('ops:custody.coldShare')}</dt>
          <ColdShare c={c} />
        </div>
        <Fact label={t('ops:custody.waiting')} testId="custody-waiting">
          {t('ops:custody.waitingOf', {
            pending: waiting.pending.count,
            pendingTotal: waiting.pending.total,
            approved: waiting.approved.count,
            approvedTotal: waiting.approved.total,
            coin,
          })}
        </Fact>
      </dl>
      {c.lastError && (
        <p className={s.chainError} data-testid="custody-error">
          <span className={s.chainErrorHead}>{t('ops:custody.lastError')}</span>
          <span className={s.mono}>{c.lastError}</span>
        </p>
      )}
    </section>
  );
}

/**
 * Where the platform's coins are (DECISIONS §18, GET /ops/api/v1/chain/custody): a card per coin with the hot
 * balance on chain and in the ledger, the cold address and balance, members' liabilities, the cold share against
 * COLD_SHARE_MIN_PCT (in the warning colour below it) and the withdrawals waiting. Refreshes by itself.
 */
export function CustodyPanel() {
  const { t } = useTranslation(['ops']);
  const custody = useOpsCustody();
  return (
    <div data-testid="custody" className={s.custodyPanel}>
      <div className={s.sectionHead}>
        <h2 className={s.h2}>{t('ops:custody.title')}</h2>
        <Button
          variant="outline"
          size="small"
          onClick={() => void custody.refetch()}
          data-testid="custody-refresh"
        >
          {t('ops:actions.refresh')}
        </Button>
      </div>
      {custody.isError && (
        <p className={s.failure} role="alert">
          {errorText(custody.error, 'ops:errors.generic', 'ops')}
        </p>
      )}
      <div className={s.chainGrid}>
        {custody.data
          ? custody.data.map((c) => <CustodyCard key={c.coinCode} c={c} />)
          : COINS.map((coin) => <div key={coin} className={`${s.chainCard} ${s.chainCardEmpty}`} />)}
      </div>
    </div>
  );
}
