import type { TradeListing } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { ListingHead } from '../../../components/ui/ListingHead';
import { formatQty, formatWon, minQtyOf } from '../../../lib/format';
import { countryKey, minimumKrw } from '../purchase-rules';
import s from '../trade.module.css';
import { BlockButton } from './BlockButton';
import { SellerStatsLine } from './SellerStatsLine';

/**
 * The listing card of /purchase (SPEC §2): coin, range, unit price, minimum purchase, the seller by nickname
 * (their one public name) with their track record (DECISIONS §11), nationality, and blocking them (§19).
 */
export function ListingSummary({ listing }: { listing: TradeListing }) {
  const { t } = useTranslation('trade');
  const upper = minQtyOf(listing.maxQty, listing.remainingQty ?? listing.maxQty);
  return (
    <Card data-testid="purchase-listing">
      <ListingHead coin={listing.coinCode} />
      <KeyValueList>
        <KeyValue label={t('list.available')}>
          {formatQty(listing.minQty)} - {formatQty(upper)} {listing.coinCode}
        </KeyValue>
        <KeyValue label={t('list.unitPrice')}>
          {t('won', { value: formatWon(listing.unitPriceKrw) })}
        </KeyValue>
        <KeyValue label={t('purchase.minPurchase')} testId="min-purchase">
          {t('won', { value: formatWon(minimumKrw(listing.minQty, listing.unitPriceKrw)) })}
        </KeyValue>
        <KeyValue label={t('purchase.seller')} testId="purchase-seller">
          {listing.sellerNickname}
        </KeyValue>
        <div className={s.blockRow}>
          <BlockButton nickname={listing.sellerNickname} />
        </div>
        {listing.sellerStats && (
          <KeyValue label={t('protocol.stats.label')}>
            <SellerStatsLine stats={listing.sellerStats} />
          </KeyValue>
        )}
        <KeyValue label={t('purchase.nationality')} testId="seller-nationality">
          {t(`purchase.country.${countryKey(listing.sellerCountry)}`)}
        </KeyValue>
      </KeyValueList>
    </Card>
  );
}
