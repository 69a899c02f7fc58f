import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { PurchaseReceipt, SellReceipt } from '../components/Receipts';
import s from '../trade.module.css';
import { receiptStateOf } from '../trade-state';

/**
 * /request_successfully (SPEC §2): the purchase or sell receipt; confirm (and the header close) return to
 * /transaction replacing history. Without navigation state it redirects to /.
 */
export default function RequestSuccessfullyPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const state = receiptStateOf(useLocation().state);
  if (!state) return <Navigate to={paths.home.path} replace />;
  const title = state.kind === 'purchase' ? t('receipt.purchaseDone') : t('receipt.sellDone');
  return (
    <Page title={t('common:routes.requestSuccessfully')} close>
      <div className={s.receiptHead}>
        <div className={s.check} aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true">
            <path
              d="M5 12.5l4.5 4.5L19 7.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinecap="round"
            />
          </svg>
        </div>
        <h2 className={s.receiptTitle} data-testid="receipt-title">
          {title}
        </h2>
      </div>
      {state.kind === 'purchase' ? (
        <PurchaseReceipt order={state.order} reserve={state.purchaseType === 'reserve'} />
      ) : (
        <SellReceipt listing={state.listing} />
      )}
      <Button
        block
        onClick={() => navigate(paths.transaction.path, { replace: true })}
        data-testid="receipt-confirm"
      >
        {t('common:actions.confirm')}
      </Button>
    </Page>
  );
}
