import type { OrderStatus } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { ORDER_STEPS, stepOf } from '../protocol-rules';
import s from '../trade.module.css';

/**
 * 신청 -> 입금 -> 판매자 확인 -> 지급 (DECISIONS §11): done steps ticked, the step in progress marked
 * (aria-current), a dispute shown on the seller's step. Nothing for an order that ended without delivery.
 */
export function StepTracker({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('trade');
  const at = stepOf(status);
  if (at === null) return null;
  return (
    <ol className={s.steps} aria-label={t('protocol.stepsLabel')} data-testid="step-tracker" data-step={at}>
      {ORDER_STEPS.map((step, i) => {
        const state = i < at ? 'done' : i === at ? (status === 'DISPUTED' ? 'alert' : 'now') : 'todo';
        return (
          <li
            key={step}
            className={`${s.step} ${s[`step_${state}`] ?? ''}`}
            aria-current={state === 'now' || state === 'alert' ? 'step' : undefined}
          >
            <span className={s.stepDot} aria-hidden="true">
              {state === 'done' ? '✓' : i + 1}
            </span>
            <span className={s.stepLabel}>{t(`protocol.steps.${step}`)}</span>
          </li>
        );
      })}
    </ol>
  );
}
