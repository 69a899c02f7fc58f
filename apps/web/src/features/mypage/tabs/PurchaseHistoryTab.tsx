import { useTranslation } from 'react-i18next';
import { formatQty, formatWon } from '../../../lib/format';
import { usePurchaseHistory } from '../../trade';
import { HistoryItem } from '../components/HistoryItem';
import { HistoryList } from '../components/HistoryList';

/** The /myinfo purchase history tab (SPEC §2): the member's buy orders with infinite scroll. */
export function PurchaseHistoryTab() {
  const { t } = useTranslation('mypage');
  const q = usePurchaseHistory();
  return (
    <HistoryList
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
      empty={t('history.emptyPurchase')}
      testId="purchase-list"
    />
  );
}
