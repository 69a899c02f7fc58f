import type { BuyOrderCreated, SellListingDetail } from '@p2p/contract';
import { orderHolderName } from '@p2p/contract/names.ts';
import { formatPhone } from '@p2p/contract/phone.ts';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { formatQty, formatWon } from '../../../lib/format';
import { formatDateTime } from '../../../lib/format-time';
import { countryKey } from '../purchase-rules';
import s from '../trade.module.css';

/** A phone as people write it; one the API masked (an ended order, DECISIONS §10) is shown as it came. */
function phoneText(phone: string): string {
  return phone.includes('*') ? phone : formatPhone(phone);
}

/** The purchase receipt (SPEC §2 /request_successfully): order, receive address, seller and pay-in account. */
export function PurchaseReceipt({ order, reserve }: { order: BuyOrderCreated; reserve: boolean }) {
  const { t } = useTranslation('trade');
  return (
    <>
      <Card data-testid="receipt-purchase">
        <h2 className={s.sectionTitle}>{t('receipt.orderInfo')}</h2>
        <KeyValueList>
          <KeyValue label={t('receipt.dateTime')}>{formatDateTime(order.createdAt)}</KeyValue>
          <KeyValue label={t('receipt.type')}>{t(reserve ? 'list.reserve' : 'list.instant')}</KeyValue>
          {reserve && order.reserveDate && (
            <KeyValue label={t('receipt.reservedAt')} testId="receipt-reserved">
              {order.reserveDate} {order.reserveTime} {t('receipt.kst')}
            </KeyValue>
          )}
          <KeyValue label={t('receipt.coin')}>{t(`common:coins.${order.coinCode}`)}</KeyValue>
          <KeyValue label={t('receipt.quantity')} testId="receipt-qty">
            {formatQty(order.requestQty)} {order.coinCode}
          </KeyValue>
          <KeyValue label={t('receipt.unitPrice')}>
            {t('won', { value: formatWon(order.unitPriceKrw) })}
          </KeyValue>
          <KeyValue label={t('receipt.amount')} testId="receipt-amount">
            {t('won', { value: formatWon(order.requestKrwAmount) })}
          </KeyValue>
          <KeyValue label={t('receipt.receiveAddress')}>
            <span className={s.mono}>{order.destAddress}</span>
          </KeyValue>
        </KeyValueList>
      </Card>
      <Card>
        <h2 className={s.sectionTitle}>{t('receipt.depositTo')}</h2>
        <KeyValueList>
          <KeyValue label={t('purchase.seller')}>{order.sellerNickName}</KeyValue>
          <KeyValue label={t('receipt.accountHolder')} testId="receipt-holder">
            {orderHolderName(order.status, order.sellerAccountHolder)}
          </KeyValue>
          <KeyValue label={t('receipt.phone')} testId="receipt-phone">
            {phoneText(order.sellerPhone)}
          </KeyValue>
          <KeyValue label={t('receipt.bank')}>{order.sellerBankName}</KeyValue>
          <KeyValue label={t('receipt.accountNo')} testId="receipt-account">
            {order.sellerAccountNo}
          </KeyValue>
        </KeyValueList>
      </Card>
      <ul className={s.notice}>
        <li>{t('receipt.notice.depositorName')}</li>
        <li>{t('receipt.notice.sellerSends')}</li>
        <li>{t('receipt.notice.window')}</li>
      </ul>
    </>
  );
}

/** The sell receipt: the listing, its escrow wallet, the seller and the pay-in account. */
export function SellReceipt({ listing }: { listing: SellListingDetail }) {
  const { t } = useTranslation('trade');
  return (
    <>
      <Card data-testid="receipt-sell">
        <h2 className={s.sectionTitle}>{t('receipt.listingInfo')}</h2>
        <KeyValueList>
          <KeyValue label={t('receipt.dateTime')}>{formatDateTime(listing.createdAt)}</KeyValue>
          <KeyValue label={t('receipt.coin')}>{t(`common:coins.${listing.coinCode}`)}</KeyValue>
          <KeyValue label={t('receipt.qtyRange')} testId="receipt-range">
            {formatQty(listing.minQty)} - {formatQty(listing.maxQty)} {listing.coinCode}
          </KeyValue>
          <KeyValue label={t('list.unitPrice')}>
            {t('won', { value: formatWon(listing.unitPriceKrw) })}
          </KeyValue>
          <KeyValue label={t('receipt.walletAddress')}>
            <span className={s.mono}>{listing.address}</span>
          </KeyValue>
        </KeyValueList>
      </Card>
      <Card>
        <h2 className={s.sectionTitle}>{t('receipt.sellerInfo')}</h2>
        <KeyValueList>
          <KeyValue label={t('receipt.sellerId')}>{listing.sellerLoginId}</KeyValue>
          <KeyValue label={t('purchase.nationality')}>
            {t(`purchase.country.${countryKey(listing.sellerCountry)}`)}
          </KeyValue>
          <KeyValue label={t('receipt.accountHolder')}>{listing.accountHolder}</KeyValue>
          <KeyValue label={t('receipt.phone')}>{phoneText(listing.sellerPhone)}</KeyValue>
          <KeyValue label={t('receipt.bank')}>{listing.bankName}</KeyValue>
          <KeyValue label={t('receipt.accountNo')}>{listing.accountNo}</KeyValue>
        </KeyValueList>
      </Card>
      <ul className={s.notice}>
        <li data-testid="receipt-review">{t('receipt.notice.review')}</li>
        <li>{t('receipt.notice.escrow')}</li>
      </ul>
    </>
  );
}
