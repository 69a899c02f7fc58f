import { useTranslation } from 'react-i18next';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { formatQty, formatWon } from '../../../lib/format';
import { usePurchaseHistory } from '../../trade';
import { HistoryItem } from '../components/HistoryItem';

/** The /myinfo purchase history tab (SPEC §2): the member's buy orders with infinite scroll. */
export function PurchaseHistoryTab() {
  const { t } = useTranslation('mypage');
  const q = usePurchaseHistory();
  return (
    <InfiniteList
      query={q}
      keyOf={(o) => o.orderId}
      renderItem={(o) => (
        <HistoryItem
          id={o.orderId}
          type="purchase"
          coin={o.coinCode}
          status={o.status}
          createdAt={o.createdAt}
          completedAt={o.completedAt}
          rows={[
            { label: t('history.quantity'), value: `${formatQty(o.requestQty)} ${o.coinCode}` },
            { label: t('history.amount'), value: t('trade:won', { value: formatWon(o.requestKrwAmount) }) },
            { label: t('history.seller'), value: o.sellerNickName },
          ]}
        />
      )}
      texts={{
        empty: t('history.emptyPurchase'),
        loading: t('trade:list.loading'),
        end: t('history.end'),
        error: t('history.error'),
      }}
      testId="purchase-list"
    />
  );
}
