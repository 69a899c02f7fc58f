import { forwardRef, type SelectHTMLAttributes, useId } from 'react';
import s from './ui.module.css';

interface Props extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: { value: string; label: string }[];
  error?: string;
  placeholder?: string;
}

/** Label, native select (best on mobile) and a reserved message line. */
export const SelectField = forwardRef<HTMLSelectElement, Props>(function SelectField(
  { label, options, error, placeholder, id, ...rest },
  ref,
) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={selectId}>
        {label}
      </label>
      <select
        ref={ref}
        id={selectId}
        className={`${s.input} ${error ? s.inputError : ''}`}
        aria-invalid={error ? true : undefined}
        {...rest}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <div className={`${s.message} ${error ? s.messageError : ''}`} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
});
