import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { isReserveDateValid, reserveDateRange, reserveTimeSlots } from '../reserve-slots';
import s from '../trade.module.css';

interface Props {
  date: string;
  time: string;
  onDate: (d: string) => void;
  onTime: (t: string) => void;
}

/** The deposit reservation of a reserve purchase: a date picker and a 15-minute time picker (Korean time). */
export function ReservePicker({ date, time, onDate, onTime }: Props) {
  const { t } = useTranslation('trade');
  const now = Date.now();
  const range = reserveDateRange(now);
  const slots = useMemo(() => (date ? reserveTimeSlots(date, Date.now()) : []), [date]);
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
    </div>
  );
}
