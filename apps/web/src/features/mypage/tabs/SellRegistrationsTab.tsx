import { useTranslation } from 'react-i18next';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { formatQty, formatWon, minQtyOf } from '../../../lib/format';
import { useSellRegistrations } from '../api/get-sell-registrations';
import { HistoryItem } from '../components/HistoryItem';

/** The /myinfo sell registrations tab (SPEC §2): the member's listings in every status, infinite scroll. */
export function SellRegistrationsTab() {
  const { t } = useTranslation('mypage');
  const q = useSellRegistrations();
  return (
    <InfiniteList
      query={q}
      keyOf={(l) => l.listingId}
      renderItem={(l) => (
        <HistoryItem
          id={l.listingId}
          type="sell-register"
          coin={l.coinCode}
          status={l.status}
          createdAt={l.createdAt}
          rows={[
            {
              label: t('history.range'),
              value: `${formatQty(l.minQty)} - ${formatQty(minQtyOf(l.maxQty, l.remainingQty))} ${l.coinCode}`,
            },
            { label: t('history.unitPrice'), value: t('trade:won', { value: formatWon(l.unitPriceKrw) }) },
          ]}
        />
      )}
      texts={{
        empty: t('history.emptySellRegister'),
        loading: t('trade:list.loading'),
        end: t('history.end'),
        error: t('history.error'),
      }}
      testId="sell-register-list"
    />
  );
}
