import type { BuyOrderDetail, SellListingDetail, SellOrderDetail } from '@p2p/contract';
import { orderHolderName } from '@p2p/contract/names.ts';
import { formatPhone } from '@p2p/contract/phone.ts';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { formatQty, formatWon } from '../../../lib/format';
import { formatDateTime } from '../../../lib/format-time';
import { countryKey } from '../purchase-rules';
import s from '../trade.module.css';
import { type DetailType, StatusBadge } from './StatusBadge';

/** Completed items show their completion time, others their creation time (SPEC §4). */
function TimeRow({
  status,
  createdAt,
  completedAt,
}: {
  status: string;
  createdAt: string;
  completedAt?: string | null;
}) {
  const { t } = useTranslation('trade');
  const done = status === 'COMPLETED';
  return (
    <KeyValue label={t(done ? 'details.completedAt' : 'details.createdAt')} testId="detail-time">
      {formatDateTime(done ? (completedAt ?? createdAt) : createdAt)}
    </KeyValue>
  );
}

/** The card's title; `badge` false when a status panel above already shows the status (orders). */
function Head({
  status,
  type,
  coin,
  badge = true,
}: {
  status: string;
  type: DetailType;
  coin: string;
  badge?: boolean;
}) {
  const { t } = useTranslation('trade');
  return (
    <div className={s.cardHead}>
      <h2 className={s.sectionTitle} style={{ margin: 0 }}>
        {t(`common:coins.${coin}`)} · {t(`details.kind.${type}`)}
      </h2>
      {badge && <StatusBadge status={status} type={type} />}
    </div>
  );
}

/** A buy order as its buyer (purchase) or seller (sell history) sees it. */
export function OrderDetailCard({
  order,
  type,
}: {
  order: BuyOrderDetail | SellOrderDetail;
  type: DetailType;
}) {
  const { t } = useTranslation('trade');
  const buyer = 'buyerLoginId' in order ? order : null;
  return (
    <>
      <Card data-testid="detail-card">
        <Head status={order.status} type={type} coin={order.coinCode} badge={false} />
        <KeyValueList>
          <TimeRow status={order.status} createdAt={order.createdAt} completedAt={order.completedAt} />
          <KeyValue label={t('receipt.orderNo')}>{order.orderId}</KeyValue>
          <KeyValue label={t('receipt.quantity')}>
            {formatQty(order.requestQty)} {order.coinCode}
          </KeyValue>
          <KeyValue label={t('receipt.unitPrice')}>
            {t('won', { value: formatWon(order.unitPriceKrw) })}
          </KeyValue>
          <KeyValue label={t('receipt.amount')}>
            {t('won', { value: formatWon(order.requestKrwAmount) })}
          </KeyValue>
          {order.reserveDate && (
            <KeyValue label={t('receipt.reservedAt')}>
              {order.reserveDate} {order.reserveTime} {t('receipt.kst')}
            </KeyValue>
          )}
          <KeyValue label={t('details.destType')}>
            {t(order.destType === 'INTERNAL' ? 'purchase.destInternal' : 'purchase.destExternal')}
          </KeyValue>
          <KeyValue label={t('receipt.receiveAddress')}>
            <span className={s.mono}>{order.destAddress}</span>
          </KeyValue>
          {order.txid && (
            <KeyValue label={t('details.txid')} testId="detail-txid">
              <span className={s.mono}>{order.txid}</span>
            </KeyValue>
          )}
        </KeyValueList>
      </Card>
      {buyer ? (
        <Card>
          <h2 className={s.sectionTitle}>{t('details.buyerInfo')}</h2>
          <KeyValueList>
            <KeyValue label={t('details.nickname')}>{buyer.buyerNickname}</KeyValue>
            <KeyValue label={t('sell.name')}>{buyer.buyerName}</KeyValue>
            <KeyValue label={t('purchase.nationality')}>
              {t(`purchase.country.${countryKey(buyer.buyerCountryCode)}`)}
            </KeyValue>
            <KeyValue label={t('receipt.phone')}>{formatPhone(buyer.buyerPhone)}</KeyValue>
            <KeyValue label={t('receipt.bank')}>{buyer.buyerBankName ?? '-'}</KeyValue>
            <KeyValue label={t('receipt.accountNo')}>{buyer.buyerAccountNo ?? '-'}</KeyValue>
          </KeyValueList>
        </Card>
      ) : (
        <DepositToCard order={order} />
      )}
    </>
  );
}

/** The buyer's view of the account paid into: the holder's name by the one masking rule (DECISIONS §10). */
function DepositToCard({ order }: { order: BuyOrderDetail }) {
  const { t } = useTranslation('trade');
  return (
    <Card>
      <h2 className={s.sectionTitle}>{t('receipt.depositTo')}</h2>
      <KeyValueList>
        <KeyValue label={t('purchase.seller')}>{order.sellerNickName}</KeyValue>
        <KeyValue label={t('receipt.accountHolder')} testId="detail-holder">
          {orderHolderName(order.status, order.sellerAccountHolder)}
        </KeyValue>
        <KeyValue label={t('receipt.bank')}>{order.sellerBankName}</KeyValue>
        <KeyValue label={t('receipt.accountNo')}>{order.sellerAccountNo}</KeyValue>
      </KeyValueList>
    </Card>
  );
}

/** A sell listing as its seller sees it (sell registrations). */
export function ListingDetailCard({ listing }: { listing: SellListingDetail }) {
  const { t } = useTranslation('trade');
  return (
    <Card data-testid="detail-card">
      <Head status={listing.status} type="sell-register" coin={listing.coinCode} />
      <KeyValueList>
        <TimeRow status={listing.status} createdAt={listing.createdAt} />
        <KeyValue label={t('receipt.listingNo')}>{listing.listingId}</KeyValue>
        <KeyValue label={t('receipt.qtyRange')}>
          {formatQty(listing.minQty)} - {formatQty(listing.maxQty)} {listing.coinCode}
        </KeyValue>
        <KeyValue label={t('details.remaining')}>
          {formatQty(listing.remainingQty)} {listing.coinCode}
        </KeyValue>
        <KeyValue label={t('list.unitPrice')}>
          {t('won', { value: formatWon(listing.unitPriceKrw) })}
        </KeyValue>
        <KeyValue label={t('receipt.walletAddress')}>
          <span className={s.mono}>{listing.address}</span>
        </KeyValue>
        <KeyValue label={t('receipt.bank')}>{listing.bankName}</KeyValue>
        <KeyValue label={t('receipt.accountNo')}>{listing.accountNo}</KeyValue>
        <KeyValue label={t('receipt.accountHolder')}>{listing.accountHolder}</KeyValue>
        {listing.rejectReason && (
          <KeyValue label={t('details.rejectReason')}>{listing.rejectReason}</KeyValue>
        )}
      </KeyValueList>
    </Card>
  );
}
