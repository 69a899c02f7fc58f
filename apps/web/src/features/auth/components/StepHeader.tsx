import { useTranslation } from 'react-i18next';
import s from '../auth.module.css';

/** Signup progress: step `step` of 3 (SPEC §2 labels completion as step 3 of 3). */
export function StepHeader({ step, title }: { step: 1 | 2 | 3; title: string }) {
  const { t } = useTranslation('auth');
  return (
    <div className={s.intro}>
      <div className={s.steps} aria-hidden="true">
        {[1, 2, 3].map((n) => (
          <span key={n} className={`${s.step} ${n <= step ? s.stepOn : ''}`} />
        ))}
      </div>
      <div className={s.stepLabel}>{t('steps.label', { step, total: 3 })}</div>
      <h2 className={s.heading}>{title}</h2>
    </div>
  );
}
