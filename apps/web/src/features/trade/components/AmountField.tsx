import { LIMITS } from '@p2p/contract/limits.ts';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/TextField';
import { formatManwon } from '../../../lib/format';
import { addQuickAmount, formatKrwInput, parseKrwInput } from '../purchase-rules';
import s from '../trade.module.css';

interface Props {
  krw: number;
  onChange: (krw: number) => void;
  error?: string;
}

/**
 * The purchase amount: direct input with thousands separators, quick-add 1만..100만 (labelled as SPEC §2 writes them, read out as
 * what they add) and reset;
 * from 10,000 won the amount is also read out in 만원 (201만원), where the error would be.
 */
export function AmountField({ krw, onChange, error }: Props) {
  const { t, i18n } = useTranslation('trade');
  return (
    <div className={s.stack}>
      <TextField
        label={t('purchase.amount')}
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('purchase.amountPlaceholder')}
        value={formatKrwInput(krw)}
        onChange={(e) => onChange(parseKrwInput(e.target.value))}
        error={error}
        hint={krw >= 10_000 ? formatManwon(krw, i18n.language) : undefined}
        aside={
          <span className={s.muted} style={{ alignSelf: 'center' }}>
            {t('wonUnit')}
          </span>
        }
        data-testid="purchase-amount"
      />
      <div className={s.quick}>
        {LIMITS.quickAmountsKrw.map((a) => (
          <button
            key={a}
            type="button"
            className={s.quickButton}
            onClick={() => onChange(addQuickAmount(krw, a))}
            aria-label={t('purchase.quickAdd', { amount: formatKrwInput(a) })}
            data-testid={`quick-${a}`}
          >
            {t(`purchase.quick.${a}`)}
          </button>
        ))}
        <button
          type="button"
          className={`${s.quickButton} ${s.quickReset}`}
          onClick={() => onChange(0)}
          data-testid="quick-reset"
        >
          {t('purchase.reset')}
        </button>
      </div>
    </div>
  );
}
