import { LIMITS } from '@p2p/contract/limits.ts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import {
  DEFAULT_RESERVE_LIST_STEP_MIN,
  isReserveDateValid,
  reserveDateRange,
  reserveTimeSlots,
} from '../reserve-slots';
import s from '../trade.module.css';

interface Props {
  date: string;
  time: string;
  onDate: (d: string) => void;
  onTime: (t: string) => void;
}

/**
 * The deposit reservation of a reserve purchase: a date picker and a time picker (Korean time) offering the
 * 30-minute list first and the 15-minute one on request (SPEC §9).
 */
export function ReservePicker({ date, time, onDate, onTime }: Props) {
  const { t } = useTranslation('trade');
  const [fine, setFine] = useState(false);
  const step = fine ? LIMITS.reserveStepMin : DEFAULT_RESERVE_LIST_STEP_MIN;
  const now = Date.now();
  const range = reserveDateRange(now);
  const slots = useMemo(() => (date ? reserveTimeSlots(date, Date.now(), step) : []), [date, step]);
  const dateError = date && !isReserveDateValid(date, now) ? t('common:fields.DATE_INVALID') : undefined;
  return (
    <div className={s.row2}>
      <TextField
        label={t('purchase.reserveDate')}
        type="date"
        min={range.min}
        max={range.max}
        value={date}
        error={dateError}
        onChange={(e) => {
          onDate(e.target.value);
          onTime('');
        }}
        data-testid="reserve-date"
      />
      <SelectField
        label={t('purchase.reserveTime')}
        value={time}
        placeholder={t('purchase.timePlaceholder')}
        options={slots.map((v) => ({ value: v, label: v }))}
        onChange={(e) => onTime(e.target.value)}
        disabled={!date || Boolean(dateError)}
        data-testid="reserve-time"
      />
      <label className={s.checkLine}>
        <input
          type="checkbox"
          checked={fine}
          onChange={(e) => {
            setFine(e.target.checked);
            // a 15-minute time is not in the 30-minute list: choose again rather than keep a hidden value
            if (!e.target.checked) onTime('');
          }}
          data-testid="reserve-fine"
        />
        {t('purchase.reserveFine')}
      </label>
    </div>
  );
}
