import type { CoinPrice } from '@p2p/contract';
import { COINS } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { landingToast } from '../../../app/toast-host';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { formatWon } from '../../../lib/format';
import { usePrices } from '../api/get-prices';
import s from '../home.module.css';

function Change({ pct }: { pct: string }) {
  const negative = pct.startsWith('-');
  const zero = /^-?0(\.0+)?$/.test(pct);
  const cls = zero ? s.flat : negative ? s.down : s.up;
  return <span className={cls}>{`${negative || zero ? '' : '+'}${pct}%`}</span>;
}

function PriceCard({ price }: { price: CoinPrice }) {
  const { t } = useTranslation();
  return (
    <div className={`${cardClassName} ${s.priceCard}`} data-testid={`price-${price.coin}`}>
      <div className={s.coinRow}>
        <CoinIcon coin={price.coin} size={28} />
        <div>
          <div className={s.coinName}>{t(`common:coins.${price.coin}`)}</div>
          <div className={s.coinSymbol}>{price.coin}</div>
        </div>
      </div>
      <div className={s.price}>{t('home:prices.won', { value: formatWon(price.krw) })}</div>
      <Change pct={price.change24hPct} />
    </div>
  );
}

function SkeletonCard() {
  return (
    <div className={`${cardClassName} ${s.priceCard}`} aria-hidden="true">
      <div className={s.skeleton} style={{ width: '60%', height: 28 }} />
      <div className={s.skeleton} style={{ width: '80%', height: 20 }} />
      <div className={s.skeleton} style={{ width: '30%', height: 14 }} />
    </div>
  );
}

/** Live rates of the four coins (SPEC §1): skeletons while loading, the error text with retry on failure. */
export function PriceCards() {
  const { t } = useTranslation('home');
  const prices = usePrices();
  const byCoin = new Map((prices.data?.prices ?? []).map((p) => [p.coin, p]));
  const retry = async () => {
    const r = await prices.refetch();
    if (r.isError) await landingToast('error', t('prices.loadFailed'));
  };

  return (
    <section className={s.section} aria-labelledby="prices-title">
      <div className={s.sectionHead}>
        <h2 id="prices-title" className={s.sectionTitle}>
          {t('prices.title')}
        </h2>
      </div>
      {prices.data ? (
        <div className={s.priceGrid}>
          {COINS.map((coin) => {
            const p = byCoin.get(coin);
            return p ? <PriceCard key={coin} price={p} /> : <SkeletonCard key={coin} />;
          })}
        </div>
      ) : prices.isError ? null : (
        <div className={s.priceGrid}>
          {COINS.map((coin) => (
            <SkeletonCard key={coin} />
          ))}
        </div>
      )}
      {prices.isError && (
        <div
          className={s.errorBox}
          role="alert"
          data-testid="prices-error"
          style={{ marginTop: prices.data ? 8 : 0 }}
        >
          <span>{t('prices.error')}</span>
          <Button variant="outline" size="small" onClick={() => void retry()} disabled={prices.isFetching}>
            {t('common:actions.retry')}
          </Button>
        </div>
      )}
      {prices.data && !prices.isError && (
        <p className={s.updated}>{prices.data.stale ? t('prices.stale') : t('prices.live')}</p>
      )}
    </section>
  );
}
