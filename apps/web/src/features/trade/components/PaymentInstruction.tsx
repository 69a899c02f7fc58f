import type { BuyOrderCreated } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { cardClassName } from '../../../components/ui/Card';
import { formatWon } from '../../../lib/format';
import { formatClock } from '../../../lib/format-time';
import { useSecondsLeft } from '../hooks/use-seconds-left';
import { formatRemaining } from '../protocol-rules';
import s from '../trade.module.css';
import { CopyButton } from './CopyButton';

/**
 * The buyer's money moment (DECISIONS §11): "{holder}님 {bank} {account}로 {amount}원을 {deadline}까지
 * 보내주세요" first, the account number and the amount with copy buttons (the amount as bare digits, which
 * every bank app accepts), the live countdown to the payment deadline and whose name must be the depositor.
 * `onDue` runs when the countdown ends (the screen refetches; the server has expired the order).
 */
export function PaymentInstruction({
  order,
  buyerName,
  onDue,
}: {
  order: BuyOrderCreated;
  buyerName: string | undefined;
  onDue: () => void;
}) {
  const { t } = useTranslation('trade');
  const left = useSecondsLeft(order.paymentDeadline, onDue);
  const amount = formatWon(order.requestKrwAmount);
  const deadline = formatClock(order.paymentDeadline);
  return (
    <section
      className={`${cardClassName} ${s.instruction}`}
      data-testid="pay-instruction"
      aria-labelledby="pay-title"
    >
      <div className={s.instructionHead}>
        <h2 id="pay-title" className={s.instructionTitle}>
          {t('protocol.payTitle')}
        </h2>
        <span
          className={`${s.countdown} ${left <= 300 ? s.countdownLow : ''}`}
          role="timer"
          aria-label={t('protocol.timeLeft')}
          data-testid="pay-countdown"
        >
          {left > 0 ? formatRemaining(left) : t('protocol.timeUp')}
        </span>
      </div>
      <p className={s.instructionText} data-testid="pay-sentence">
        {t('protocol.instruction', {
          holder: order.sellerAccountHolder,
          bank: order.sellerBankName,
          account: order.sellerAccountNo,
          amount,
          deadline,
        })}
      </p>
      <dl className={s.payRows}>
        <div className={s.payRow}>
          <dt>{t('receipt.accountNo')}</dt>
          <dd>
            <span className={s.payValue} data-testid="pay-account">
              {order.sellerBankName} {order.sellerAccountNo}
            </span>
            <CopyButton
              value={order.sellerAccountNo}
              label={t('protocol.copy')}
              done={t('protocol.copiedAccount')}
              testId="copy-account"
            />
          </dd>
        </div>
        <div className={s.payRow}>
          <dt>{t('receipt.amount')}</dt>
          <dd>
            <span className={s.payValue} data-testid="pay-amount">
              {t('won', { value: amount })}
            </span>
            <CopyButton
              value={String(order.requestKrwAmount)}
              label={t('protocol.copy')}
              done={t('protocol.copiedAmount')}
              testId="copy-amount"
            />
          </dd>
        </div>
        <div className={s.payRow}>
          <dt>{t('receipt.accountHolder')}</dt>
          <dd>
            <span className={s.payValue}>{order.sellerAccountHolder}</span>
          </dd>
        </div>
      </dl>
      <p className={s.payNote}>
        {`${buyerName ? t('protocol.depositorIs', { name: buyerName }) : t('receipt.notice.depositorName')} ${t('protocol.ownAccountOnly')}`}
      </p>
    </section>
  );
}
