import type { TradeListing } from '@p2p/contract';
import { COINS, type Coin, LISTING_SORTS, type ListingSort } from '@p2p/contract/enums.ts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useNavigationType, useSearchParams } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { paths } from '../../../config/paths';
import { session } from '../../../lib/storage';
import { useTradeListings } from '../api/get-trade-listings';
import { ListingCard, type PurchaseType } from '../components/ListingCard';
import { PurchaseTypesHelp } from '../components/PurchaseTypesHelp';
import { listTotal } from '../list-total';
import s from '../trade.module.css';

type CoinTab = Coin | 'all';

/** The coin tabs in SPEC §2's order: all / BTC / ETH / TRX / XRP. */
const COIN_TABS: readonly Coin[] = ['BTC', 'ETH', 'TRX', 'XRP'];

/** sessionStorage: the list's last coin/sort query and scroll offset, for the way back from a purchase. */
const LIST_KEY = 'tradeListView';

function coinOf(v: string | null): CoinTab {
  const up = (v ?? '').toUpperCase();
  return (COINS as readonly string[]).includes(up) ? (up as Coin) : 'all';
}

function sortOf(v: string | null): ListingSort {
  return (LISTING_SORTS as readonly string[]).includes(v ?? '') ? (v as ListingSort) : 'CREATED_DESC';
}

/**
 * /transaction (SPEC §2): title 거래, banner and 판매 등록하기, coin tabs, 총 N건, the three sorts and the
 * listing cards with infinite scroll (TanStack useInfiniteQuery, next page within 100 px of the bottom).
 * Coin and sort live in the URL (?coin=btc&sort=PRICE_ASC, the names of SPEC §2), and the list comes back
 * where it was after a purchase: the last query and scroll offset are kept for the browser session.
 */
export default function TransactionPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const [params, setParams] = useSearchParams();
  const saved = JSON.parse(session.get(LIST_KEY) ?? '{}') as { search?: string; scrollY?: number };
  // Arriving without a query (the receipt's confirm, the header) brings back the last one of this session.
  const effective =
    params.has('coin') || params.has('sort') ? params : new URLSearchParams(saved.search ?? '');
  const coin = coinOf(effective.get('coin'));
  const sort = sortOf(effective.get('sort'));
  const q = useTradeListings(coin, sort);
  const setView = (next: { coin?: CoinTab; sort?: ListingSort }) => {
    const c = next.coin ?? coin;
    const so = next.sort ?? sort;
    setParams({ coin: c.toLowerCase(), sort: so }, { replace: true });
  };
  const search = `coin=${coin.toLowerCase()}&sort=${sort}`;
  useEffect(() => {
    const prev = JSON.parse(session.get(LIST_KEY) ?? '{}') as object;
    session.set(LIST_KEY, JSON.stringify({ ...prev, search }));
  }, [search]);
  const loaded = q.isSuccess;
  // The offset to come back to, taken when the screen opens: only on the way back (not a new visit), once.
  const restoreY = useRef(navigationType === 'PUSH' ? 0 : (saved.scrollY ?? 0));
  useEffect(() => {
    if (!loaded || !restoreY.current) return;
    const y = restoreY.current;
    // after the root layout's scroll to the top of the new route (SPEC §2)
    const id = requestAnimationFrame(() => {
      restoreY.current = 0;
      window.scrollTo(0, y);
    });
    return () => cancelAnimationFrame(id);
  }, [loaded]);

  const buy = (listing: TradeListing, purchaseType: PurchaseType) => {
    session.set(LIST_KEY, JSON.stringify({ search, scrollY: window.scrollY }));
    navigate(paths.purchase.path, { state: { tradeData: listing, purchaseType } });
  };

  return (
    <Page title={t('list.title')} tabs>
      <section className={s.banner}>
        <p className={s.bannerText}>{t('list.banner')}</p>
        <Button className={s.bannerButton} onClick={() => navigate(paths.sell.path)} data-testid="to-sell">
          {t('list.sellButton')}
        </Button>
      </section>
      <SegmentedControl<CoinTab>
        label={t('list.coinFilter')}
        value={coin}
        onChange={(c) => setView({ coin: c })}
        options={[{ value: 'all', label: t('list.all') }, ...COIN_TABS.map((c) => ({ value: c, label: c }))]}
        testId="coin-tab"
      />
      <PurchaseTypesHelp />
      <div className={s.toolbar}>
        <span className={s.total} data-testid="total-count">
          {/* no count until one is known: a failed or loading list is not "0 listings" */}
          {q.data ? listTotal(t, q.data.pages[0]) : '\u00a0'}
        </span>
        <select
          className={s.sortSelect}
          value={sort}
          onChange={(e) => setView({ sort: sortOf(e.target.value) })}
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
