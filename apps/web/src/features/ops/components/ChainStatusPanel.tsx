import { type ChainStatus, COINS } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { useChainStatus } from '../api/chain';
import s from '../ops.module.css';

/** A lag above this many blocks is shown as a warning: the watcher is falling behind its node. */
const LAG_WARN_BLOCKS = 10;

type Health = 'off' | 'waiting' | 'up' | 'down' | 'behind';

/** One word for a coin's watcher: not configured, not scanned yet, node down, behind, or up. */
function healthOf(c: ChainStatus): Health {
  if (!c.configured) return 'off';
  if (c.nodeUp === null) return 'waiting';
  if (!c.nodeUp) return 'down';
  return (c.lagBlocks ?? 0) > LAG_WARN_BLOCKS ? 'behind' : 'up';
}

const TONE: Record<Health, string> = { off: 'muted', waiting: 'info', up: 'ok', down: 'bad', behind: 'warn' };

const num = (v: number | null) => (v === null ? '–' : v.toLocaleString('en-US'));

function CoinCard({ c }: { c: ChainStatus }) {
  const { t } = useTranslation(['ops']);
  const health = healthOf(c);
  return (
    <section
      className={s.chainCard}
      aria-label={c.coinCode}
      data-testid={`chain-status-${c.coinCode}`}
      data-health={health}
    >
      <header className={s.chainCardHead}>
        <strong className={s.chainCoin}>{c.coinCode}</strong>
        <span className={`${s.badge} ${s[`badge_${TONE[health]}`] ?? ''}`}>
          {t(`ops:chain.health.${health}`)}
        </span>
      </header>
      {c.configured ? (
        <dl className={s.chainFacts}>
          <div>
            <dt>{t('ops:chain.scanned')}</dt>
            <dd data-testid="chain-scanned">{num(c.scannedHeight)}</dd>
          </div>
          <div>
            <dt>{t('ops:chain.node')}</dt>
            <dd data-testid="chain-node">{num(c.nodeHeight)}</dd>
          </div>
          <div>
            <dt>{t('ops:chain.lag')}</dt>
            <dd data-testid="chain-lag">
              {c.lagBlocks === null ? '–' : t('ops:chain.blocks', { count: c.lagBlocks })}
            </dd>
          </div>
          <div>
            <dt>{t('ops:chain.lastScan')}</dt>
            <dd>{c.lastScanAt ? formatTime(c.lastScanAt) : '–'}</dd>
          </div>
          <div>
            <dt>{t('ops:chain.confirmations')}</dt>
            <dd>{c.requiredConfirmations}</dd>
          </div>
          <div>
            <dt>{t('ops:chain.watcher')}</dt>
            <dd>{c.watcherActive ? t('ops:chain.watcherActive') : t('ops:chain.watcherIdle')}</dd>
          </div>
        </dl>
      ) : (
        <p className={s.chainOff}>{t('ops:chain.notConfigured', { coin: c.coinCode })}</p>
      )}
      {c.lastError && (
        <p className={c.nodeUp === false ? s.chainError : s.chainPastError} data-testid="chain-error">
          <span className={s.chainErrorHead}>
            {c.nodeUp === false ? t('ops:chain.lastError') : t('ops:chain.pastError')}
            {c.lastErrorAt && ` · ${formatTime(c.lastErrorAt)}`}
          </span>
          <span className={s.mono}>{c.lastError}</span>
        </p>
      )}
    </section>
  );
}

/**
 * The chain watchers at a glance (DECISIONS §17, GET /ops/api/v1/chain/status): a card per coin with its node
 * configured or not, scanned height against the node's, the lag, the last scan and the last error. Refreshes
 * every 10 s by itself and on demand.
 */
export function ChainStatusPanel() {
  const { t } = useTranslation(['ops', 'common']);
  const status = useChainStatus();
  return (
    <div data-testid="chain-status">
      <div className={s.sectionHead}>
        <h2 className={s.h2}>{t('ops:chain.nodesTitle')}</h2>
        <Button
          variant="outline"
          size="small"
          onClick={() => void status.refetch()}
          data-testid="chain-refresh"
        >
          {t('ops:actions.refresh')}
        </Button>
      </div>
      {status.isError && (
        <p className={s.failure} role="alert">
          {errorText(status.error, 'ops:errors.generic', 'ops')}
        </p>
      )}
      <div className={s.chainGrid}>
        {status.data
          ? status.data.map((c) => <CoinCard key={c.coinCode} c={c} />)
          : // the four coins' places, so the cards arriving do not push the queue below down
            COINS.map((coin) => <div key={coin} className={`${s.chainCard} ${s.chainCardEmpty}`} />)}
      </div>
    </div>
  );
}
