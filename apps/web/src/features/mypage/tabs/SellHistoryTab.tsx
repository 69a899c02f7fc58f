import { useTranslation } from 'react-i18next';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { formatQty, formatWon } from '../../../lib/format';
import { useSellHistory } from '../api/get-sell-history';
import { HistoryItem } from '../components/HistoryItem';

/** The /myinfo sell history tab (SPEC §2): buy orders on the member's listings, infinite scroll. */
export function SellHistoryTab() {
  const { t } = useTranslation('mypage');
  const q = useSellHistory();
  return (
    <InfiniteList
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
      texts={{
        empty: t('history.emptySellHistory'),
        loading: t('trade:list.loading'),
        end: t('history.end'),
        error: t('history.error'),
      }}
      testId="sell-history-list"
    />
  );
}
