import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { OrderChat } from '../components/OrderChat';
import { BuyerOrderLive } from '../components/OrderViews';
import { PurchaseReceipt, SellReceipt } from '../components/Receipts';
import s from '../trade.module.css';
import { receiptStateOf } from '../trade-state';

/**
 * /request_successfully (SPEC §2). For a purchase it is a request waiting for the buyer's deposit, not a
 * finished purchase (DECISIONS §11): it leads with the payment instruction, the countdown, the step
 * tracker and 입금했어요, then the receipt. Confirm (and the header close) return to /transaction replacing
 * history. Without navigation state it redirects to /.
 */
export default function RequestSuccessfullyPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const state = receiptStateOf(useLocation().state);
  if (!state) return <Navigate to={paths.home.path} replace />;
  const purchase = state.kind === 'purchase';
  return (
    <Page title={t('common:routes.requestSuccessfully')} close>
      <div className={s.receiptHead}>
        <h2 className={s.receiptTitle} data-testid="receipt-title">
          {purchase ? t('receipt.purchaseRequested') : t('receipt.sellDone')}
        </h2>
        {purchase && <p className={s.receiptSub}>{t('receipt.purchaseNext')}</p>}
      </div>
      {state.kind === 'purchase' ? (
        <>
          <BuyerOrderLive
            orderId={state.order.orderId}
            initial={state.order}
            afterCancel={() => navigate(paths.transaction.path, { replace: true })}
          />
          <OrderChat orderId={state.order.orderId} side="buyer" />
          <PurchaseReceipt order={state.order} reserve={state.purchaseType === 'reserve'} />
        </>
      ) : (
        <SellReceipt listing={state.listing} />
      )}
      <Button
        block
        variant={purchase ? 'outline' : 'primary'}
        onClick={() => navigate(paths.transaction.path, { replace: true })}
        data-testid="receipt-confirm"
      >
        {purchase ? t('receipt.toList') : t('common:actions.confirm')}
      </Button>
    </Page>
  );
}
