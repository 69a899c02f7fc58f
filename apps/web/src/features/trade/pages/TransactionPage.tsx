import type { TradeListing } from '@p2p/contract';
import { COINS, type Coin, LISTING_SORTS, type ListingSort } from '@p2p/contract/enums.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { paths } from '../../../config/paths';
import { useTradeListings } from '../api/get-trade-listings';
import { ListingCard, type PurchaseType } from '../components/ListingCard';
import s from '../trade.module.css';

type CoinTab = Coin | 'all';

/**
 * /transaction (SPEC §2): title 거래, banner and 판매 등록하기, coin tabs, 총 N건, the three sorts and the
 * listing cards with infinite scroll (TanStack useInfiniteQuery, next page within 100 px of the bottom).
 */
export default function TransactionPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const [coin, setCoin] = useState<CoinTab>('all');
  const [sort, setSort] = useState<ListingSort>('CREATED_DESC');
  const q = useTradeListings(coin, sort);
  const total = q.data?.pages[0]?.totalCount ?? 0;

  const buy = (listing: TradeListing, purchaseType: PurchaseType) =>
    navigate(paths.purchase.path, { state: { tradeData: listing, purchaseType } });

  return (
    <Page title={t('list.title')}>
      <section className={s.banner}>
        <p className={s.bannerText}>{t('list.banner')}</p>
        <Button className={s.bannerButton} onClick={() => navigate(paths.sell.path)} data-testid="to-sell">
          {t('list.sellButton')}
        </Button>
      </section>
      <SegmentedControl<CoinTab>
        label={t('list.coinFilter')}
        value={coin}
        onChange={setCoin}
        options={[{ value: 'all', label: t('list.all') }, ...COINS.map((c) => ({ value: c, label: c }))]}
        testId="coin-tab"
      />
      <div className={s.toolbar}>
        <span className={s.total} data-testid="total-count">
          {t('list.total', { count: total })}
        </span>
        <select
          className={s.sortSelect}
          value={sort}
          onChange={(e) => setSort(e.target.value as ListingSort)}
          aria-label={t('list.sortLabel')}
          data-testid="sort"
        >
          {LISTING_SORTS.map((v) => (
            <option key={v} value={v}>
              {t(`list.sort.${v}`)}
            </option>
          ))}
        </select>
      </div>
      <InfiniteList
        query={q}
        keyOf={(l) => l.listingId}
        renderItem={(l) => <ListingCard listing={l} onBuy={(type) => buy(l, type)} />}
        texts={{
          empty: t('list.empty'),
          loading: t('list.loading'),
          end: t('list.end'),
          error: t('list.error'),
        }}
        testId="trade-list"
      />
    </Page>
  );
}
