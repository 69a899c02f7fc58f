import type { BuyOrderCreated, BuyOrderDetail, SellOrderDetail } from '@p2p/contract';
import { orderHolderName } from '@p2p/contract/names.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { formatWon } from '../../../lib/format';
import { useMe } from '../../../lib/me';
import { orderQueries } from '../api/order-queries';
import { memberActions } from '../protocol-rules';
import s from '../trade.module.css';
import { BlockButton } from './BlockButton';
import { OrderActions } from './OrderActions';
import { PaymentInstruction } from './PaymentInstruction';
import { StatusPanel } from './StatusPanel';

/**
 * The buyer's live order (DECISIONS §11): where it stands, the payment instruction while REQUESTED
 * (sentence, copy buttons, countdown), then the actions the table allows. `initial` (the creation answer
 * on the receipt) shows at once; the order is refetched every 15 s and when a deadline passes.
 */
export function BuyerOrderLive({
  orderId,
  initial,
  afterCancel,
}: {
  orderId: number;
  initial?: BuyOrderCreated;
  afterCancel?: () => void;
}) {
  const q = useQuery(orderQueries.buyer(orderId));
  const me = useMe();
  const order: BuyOrderCreated | BuyOrderDetail | undefined = q.data ?? initial;
  if (!order) return null;
  const refetch = () => void q.refetch();
  const { actions, disputeLater } = memberActions(order, 'buyer', Date.now());
  return (
    <>
      <StatusPanel order={order} side="buyer" disputeLater={disputeLater} onDue={refetch} />
      {order.status === 'REQUESTED' && (
        <PaymentInstruction order={order} buyerName={me.data?.name} onDue={refetch} />
      )}
      <OrderActions
        order={{
          ...order,
          holder: orderHolderName(order.status, order.sellerAccountHolder),
          counterpart: order.sellerNickName,
        }}
        side="buyer"
        actions={actions}
        onMoved={refetch}
        afterCancel={afterCancel}
      />
      <div className={s.blockRow}>
        <BlockButton nickname={order.sellerNickName} />
      </div>
    </>
  );
}

/**
 * The seller's live order (DECISIONS §11): where it stands, the depositor name and the amount to find in
 * their bank account, then the actions the table allows (release through /proceed, reject, dispute).
 */
export function SellerOrderLive({
  order,
  onMoved,
  afterCancel,
}: {
  order: SellOrderDetail;
  onMoved: () => void;
  afterCancel?: () => void;
}) {
  const { t } = useTranslation('trade');
  const { actions, disputeLater } = memberActions(order, 'seller', Date.now());
  const waiting = order.status === 'REQUESTED' || order.status === 'PAID';
  return (
    <>
      <StatusPanel order={order} side="seller" disputeLater={disputeLater} onDue={onMoved} />
      {waiting && (
        <Card data-testid="seller-check">
          <h2 className={s.sectionTitle}>{t('protocol.sellerCheck.title')}</h2>
          <dl className={s.payRows}>
            <div className={s.payRow}>
              <dt>{t('protocol.sellerCheck.depositor')}</dt>
              <dd>
                <span className={s.payValue} data-testid="check-depositor">
                  {order.buyerName}
                </span>
              </dd>
            </div>
            <div className={s.payRow}>
              <dt>{t('protocol.sellerCheck.amount')}</dt>
              <dd>
                <span className={s.payValue} data-testid="check-amount">
                  {t('won', { value: formatWon(order.requestKrwAmount) })}
                </span>
              </dd>
            </div>
            <div className={s.payRow}>
              <dt>{t('protocol.sellerCheck.into')}</dt>
              <dd>
                <span className={s.payValueSoft}>
                  {order.sellerBankName} {order.sellerAccountNo}
                </span>
              </dd>
            </div>
          </dl>
          <p className={s.payNote}>
            {t('protocol.sellerCheck.note', {
              name: order.buyerName,
              amount: formatWon(order.requestKrwAmount),
            })}
          </p>
        </Card>
      )}
      <OrderActions
        order={{
          ...order,
          holder: orderHolderName(order.status, order.sellerAccountHolder),
          counterpart: order.buyerNickname,
        }}
        side="seller"
        actions={actions}
        onMoved={onMoved}
        afterCancel={afterCancel}
      />
    </>
  );
}
