import type { SellerStats } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { sellerStatsParts } from '../protocol-rules';
import s from '../trade.module.css';

/** "거래 152회 · 완료율 98% · 보통 7분" or "신규 판매자" (DECISIONS §11 sellerStats; nulls left out). */
export function SellerStatsLine({ stats }: { stats: SellerStats }) {
  const { t } = useTranslation('trade');
  const parts = sellerStatsParts(stats).map((p) => {
    if (p.key === 'new') return t('protocol.stats.new');
    if (p.key === 'trades') return t('protocol.stats.trades', { count: p.count });
    if (p.key === 'rate') return t('protocol.stats.rate', { pct: p.pct });
    return t('protocol.stats.release', { minutes: p.minutes });
  });
  return (
    <span className={s.stats} data-testid="seller-stats">
      <span className={s.srOnly}>{t('protocol.stats.label')}: </span>
      {parts.join(' · ')}
    </span>
  );
}
