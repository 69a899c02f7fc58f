import type { BuyOrderCreated } from '@p2p/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { orderQueries } from '../api/order-queries';
import { OrderChat } from '../components/OrderChat';
import { BuyerOrderLive } from '../components/OrderViews';
import { PurchaseReceipt, SellReceipt } from '../components/Receipts';
import s from '../trade.module.css';
import { receiptStateOf } from '../trade-state';

/**
 * /request_successfully (SPEC §2). For a purchase it is a request waiting for the buyer's deposit, not a
 * finished purchase (DECISIONS §11): it leads with the payment instruction, the countdown, the step
 * tracker and 입금했어요, then the receipt; its heading follows the order's state. Confirm (and the header close) return to /transaction replacing
 * history. Without navigation state it redirects to /.
 */
export default function RequestSuccessfullyPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const state = receiptStateOf(useLocation().state);
  if (!state) return <Navigate to={paths.home.path} replace />;
  const toList = () => navigate(paths.transaction.path, { replace: true });
  return (
    <Page title={t('common:routes.requestSuccessfully')} close>
      {state.kind === 'purchase' ? (
        <PurchaseRequested order={state.order} reserve={state.purchaseType === 'reserve'} onDone={toList} />
      ) : (
        <>
          <div className={s.receiptHead}>
            <h2 className={s.receiptTitle} data-testid="receipt-title">
              {t('receipt.sellDone')}
            </h2>
          </div>
          <SellReceipt listing={state.listing} />
        </>
      )}
      <Button
        block
        variant={state.kind === 'purchase' ? 'outline' : 'primary'}
        onClick={toList}
        data-testid="receipt-confirm"
      >
        {state.kind === 'purchase' ? t('receipt.toList') : t('common:actions.confirm')}
      </Button>
    </Page>
  );
}

/**
 * The purchase side of the receipt, from the order as it stands now (the creation answer only until the first
 * read): "구매를 신청했어요" and the "아직 끝나지 않았어요" line only while the order waits for the deposit;
 * afterwards a heading that says what became of it. The receipt shows the seller's name by the one rule.
 */
function PurchaseRequested(p: { order: BuyOrderCreated; reserve: boolean; onDone: () => void }) {
  const { t } = useTranslation('trade');
  const q = useQuery(orderQueries.buyer(p.order.orderId));
  const order: BuyOrderCreated = q.data ?? p.order;
  const requested = order.status === 'REQUESTED';
  return (
    <>
      <div className={s.receiptHead}>
        <h2 className={s.receiptTitle} data-testid="receipt-title">
          {requested ? t('receipt.purchaseRequested') : t(`receipt.headingByStatus.${order.status}`)}
        </h2>
        {requested && (
          <p className={s.receiptSub} data-testid="receipt-next">
            {t('receipt.purchaseNext')}
          </p>
        )}
      </div>
      <BuyerOrderLive orderId={order.orderId} initial={p.order} afterCancel={p.onDone} />
      <OrderChat orderId={order.orderId} side="buyer" />
      <PurchaseReceipt order={order} reserve={p.reserve} />
    </>
  );
}
