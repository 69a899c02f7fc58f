import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from 'react';
import s from './ui.module.css';

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Error text (red); wins over `hint`. */
  error?: string;
  /** Neutral or success text below the input. */
  hint?: string;
  hintTone?: 'muted' | 'success';
  /** A button or timer placed to the right of the input. */
  aside?: ReactNode;
}

/** Label, input, optional side control and a message line whose height is always reserved. */
export const TextField = forwardRef<HTMLInputElement, Props>(function TextField(
  { label, error, hint, hintTone = 'muted', aside, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const msgId = `${inputId}-msg`;
  const message = error ?? hint;
  const tone = error ? s.messageError : hintTone === 'success' ? s.messageSuccess : '';
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={inputId}>
        {label}
      </label>
      <div className={s.inputRow}>
        <input
          ref={ref}
          id={inputId}
          className={`${s.input} ${error ? s.inputError : ''} ${className ?? ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={msgId}
          {...rest}
        />
        {aside}
      </div>
      <div id={msgId} className={`${s.message} ${tone}`} role={error ? 'alert' : undefined}>
        {message}
      </div>
    </div>
  );
});
