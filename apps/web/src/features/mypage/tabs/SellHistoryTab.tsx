import { useTranslation } from 'react-i18next';
import { formatQty, formatWon } from '../../../lib/format';
import { useOrderCounts, useSellHistory } from '../../trade';
import { HistoryItem } from '../components/HistoryItem';
import { HistoryList } from '../components/HistoryList';
import m from '../mypage.module.css';

/**
 * The /myinfo sell history tab (SPEC §2): buy orders on the member's listings, infinite scroll, led by how
 * many wait for the seller (a deposit to check, a release to decide: DECISIONS §11).
 */
export function SellHistoryTab() {
  const { t } = useTranslation('mypage');
  const q = useSellHistory();
  const waiting = useOrderCounts().data?.sellerWaiting ?? 0;
  return (
    <>
      {waiting > 0 && (
        <p className={m.waitingBanner} data-testid="seller-waiting">
          {t('waiting.seller', { count: waiting })}
        </p>
      )}
      <HistoryList
        query={q}
        keyOf={(o) => o.orderId}
        renderItem={(o) => (
          <HistoryItem
            id={o.orderId}
            type="sell-history"
            coin={o.coinCode}
            status={o.status}
            createdAt={o.createdAt}
            completedAt={o.completedAt}
            rows={[
              { label: t('history.quantity'), value: `${formatQty(o.requestQty)} ${o.coinCode}` },
              { label: t('history.amount'), value: t('trade:won', { value: formatWon(o.requestKrwAmount) }) },
              { label: t('history.buyer'), value: o.buyerNickname ?? '-' },
            ]}
          />
        )}
        empty={t('history.emptySellHistory')}
        testId="sell-history-list"
      />
    </>
  );
}
