import type { TradeListing } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { ListingHead } from '../../../components/ui/ListingHead';
import { formatQty, formatWon, minQtyOf } from '../../../lib/format';
import { purchaseRangeKrw } from '../purchase-rules';
import s from '../trade.module.css';
import { SellerStatsLine } from './SellerStatsLine';

export type PurchaseType = 'instant' | 'reserve';

/**
 * A trade list card (SPEC §2 /transaction): coin name and icon, seller nickname and flag, 판매 가능 수량
 * minQty-min(maxQty, remainingQty) (DECISIONS §4), 개당 판매 금액 in 원, what one order may spend in 원 (with
 * the 950만원 per-order cap said before the purchase form refuses it), the seller's track record (DECISIONS §11)
 * and the two purchase buttons.
 */
export function ListingCard({ listing, onBuy }: { listing: TradeListing; onBuy: (t: PurchaseType) => void }) {
  const { t } = useTranslation('trade');
  const upper = minQtyOf(listing.maxQty, listing.remainingQty);
  const range = purchaseRangeKrw(listing.minQty, upper, listing.unitPriceKrw);
  return (
    <article
      className={`${cardClassName} ${s.card}`}
      data-testid="listing-card"
      data-listing-id={listing.listingId}
    >
      <ListingHead
        coin={listing.coinCode}
        seller={{ nickname: listing.sellerNickname, country: listing.sellerCountry }}
      />
      <SellerStatsLine stats={listing.sellerStats} />
      <div className={s.kv}>
        <span className={s.kvLabel}>{t('list.available')}</span>
        <span className={s.kvValue} data-testid="listing-range">
          {formatQty(listing.minQty)} - {formatQty(upper)} {listing.coinCode}
        </span>
      </div>
      <div className={s.kv}>
        <span className={s.kvLabel}>{t('list.unitPrice')}</span>
        <span className={s.kvValue} data-testid="listing-price">
          {t('won', { value: formatWon(listing.unitPriceKrw) })}
        </span>
      </div>
      <div className={s.kv}>
        <span className={s.kvLabel}>{t('list.spendRange')}</span>
        <span className={s.kvValue} data-testid="listing-krw-range">
          {t('list.krwRange', { min: formatWon(range.min), max: formatWon(range.max) })}
        </span>
      </div>
      {range.capped && (
        <p className={s.cardNote} data-testid="listing-cap">
          {t('list.perOrderCap')}
        </p>
      )}
      <div className={s.buttons}>
        <Button onClick={() => onBuy('instant')} data-testid="buy-instant">
          {t('list.instant')}
        </Button>
        <Button variant="secondary" onClick={() => onBuy('reserve')} data-testid="buy-reserve">
          {t('list.reserve')}
        </Button>
      </div>
    </article>
  );
}
