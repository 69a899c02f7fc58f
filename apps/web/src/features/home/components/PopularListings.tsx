import type { TradeListing } from '@p2p/contract';
import useEmblaCarousel from 'embla-carousel-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { ListingHead } from '../../../components/ui/ListingHead';
import { paths } from '../../../config/paths';
import { formatQty, formatWon, minQtyOf } from '../../../lib/format';
import { savePendingPurchase } from '../../../lib/pending-purchase';
import { useSession } from '../../../lib/session';
import { useBestListings } from '../api/get-best-listings';
import s from '../home.module.css';

type PurchaseType = 'instant' | 'reserve';

function ListingCard({ listing, onBuy }: { listing: TradeListing; onBuy: (t: PurchaseType) => void }) {
  const { t } = useTranslation('home');
  const upper = minQtyOf(listing.maxQty, listing.remainingQty);
  return (
    <article className={`${cardClassName} ${s.listingCard}`} data-testid="best-listing">
      <ListingHead
        coin={listing.coinCode}
        seller={{ nickname: listing.sellerNickname, country: listing.sellerCountry }}
        compact
      />
      <div className={s.kv}>
        <span className={s.kvLabel}>{t('best.available')}</span>
        <span className={s.kvValue}>
          {formatQty(listing.minQty)} - {formatQty(upper)} {listing.coinCode}
        </span>
      </div>
      <div className={s.kv}>
        <span className={s.kvLabel}>{t('best.unitPrice')}</span>
        <span className={s.kvValue}>{t('prices.won', { value: formatWon(listing.unitPriceKrw) })}</span>
      </div>
      <div className={s.buttonRow}>
        <Button onClick={() => onBuy('instant')} data-testid="buy-instant">
          {t('best.instant')}
        </Button>
        <Button variant="secondary" onClick={() => onBuy('reserve')} data-testid="buy-reserve">
          {t('best.reserve')}
        </Button>
      </div>
    </article>
  );
}

/**
 * The popular-sales carousel (SPEC §1, §9: gap 8, loops when more than one). A member goes to /purchase
 * with tradeData and purchaseType; a visitor's choice is stored and resumed after /login.
 */
export function PopularListings() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const loggedIn = useSession((st) => Boolean(st.accessToken));
  const best = useBestListings();
  const listings = best.data ?? [];
  const [viewportRef] = useEmblaCarousel({ loop: listings.length > 1, align: 'start' });

  const buy = (listing: TradeListing, purchaseType: PurchaseType) => {
    const tradeData = listing;
    if (!loggedIn) {
      savePendingPurchase({ tradeData, purchaseType });
      navigate(paths.login.path);
      return;
    }
    navigate(paths.purchase.path, { state: { tradeData, purchaseType } });
  };

  return (
    <section className={s.section} aria-labelledby="best-title">
      <div className={s.sectionHead}>
        <h2 id="best-title" className={s.sectionTitle}>
          {t('best.title')}
        </h2>
        <Link to={paths.transaction.path} className={s.sectionLink}>
          {t('best.more')}
        </Link>
      </div>
      {best.isPending ? (
        // A card-shaped placeholder keeps the section's height while the listings load (no layout jump).
        <div role="status" aria-label={t('common:loading')} data-testid="best-loading">
          <span className="skeleton" style={{ height: 196 }} />
        </div>
      ) : listings.length === 0 ? (
        <div className={s.empty} data-testid="best-empty">
          {best.isError ? t('best.error') : t('best.empty')}
        </div>
      ) : (
        <div className={s.viewport} ref={viewportRef}>
          <div className={s.container}>
            {listings.map((l) => (
              <div className={`${s.slide} ${listings.length === 1 ? s.slideSingle : ''}`} key={l.listingId}>
                <ListingCard listing={l} onBuy={(type) => buy(l, type)} />
              </div>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}
