import { ORDER_TIMING_DEFAULTS } from '@p2p/contract/dispute-rules.ts';
import { useTranslation } from 'react-i18next';
import s from '../trade.module.css';

/** Minutes a buyer has to pay after ordering (DECISIONS §11 ORDER_PAYMENT_WINDOW_SEC, its default). */
export const PAYMENT_WINDOW_MIN = Math.round(ORDER_TIMING_DEFAULTS.paymentWindowSec / 60);

/** What 즉시구매 and 예약구매 mean, folded above the trade list so a buyer decides before ordering. */
export function PurchaseTypesHelp() {
  const { t } = useTranslation('trade');
  return (
    <details className={s.typesHelp} data-testid="purchase-types-help">
      <summary>{t('list.typesHelp.title')}</summary>
      <dl>
        <dt>{t('list.instant')}</dt>
        <dd>{t('list.typesHelp.instant', { minutes: PAYMENT_WINDOW_MIN })}</dd>
        <dt>{t('list.reserve')}</dt>
        <dd>{t('list.typesHelp.reserve', { minutes: PAYMENT_WINDOW_MIN })}</dd>
      </dl>
    </details>
  );
}

/** Under the purchase screen's title: what this kind of purchase means, with its payment window. */
export function PurchaseTypeMeaning({ reserve }: { reserve: boolean }) {
  const { t } = useTranslation('trade');
  return (
    <p className={s.muted} style={{ margin: 0, wordBreak: 'keep-all' }} data-testid="purchase-type-meaning">
      {t(reserve ? 'list.typesHelp.reserve' : 'list.typesHelp.instant', { minutes: PAYMENT_WINDOW_MIN })}
    </p>
  );
}

/** The purchase screen's notes: the payment window first, then the depositor name and the phone check. */
export function PurchaseNotice({ reserve }: { reserve: boolean }) {
  const { t } = useTranslation('trade');
  return (
    <ul className={s.notice}>
      <li data-testid="payment-window">
        {t(reserve ? 'purchase.notice.windowReserve' : 'purchase.notice.windowInstant', {
          minutes: PAYMENT_WINDOW_MIN,
        })}
      </li>
      <li>{t('purchase.notice.depositorName')}</li>
      <li>{t('purchase.notice.verify')}</li>
    </ul>
  );
}
