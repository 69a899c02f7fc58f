import { type CSSProperties, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import s from './ui.module.css';
import { useScrollLock } from './useScrollLock';

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: (close: () => void) => ReactNode;
  /** Close animation length in ms (terms modal 300, SPEC §9). */
  closeMs?: number;
}

/**
 * A bottom sheet dialog: slides up, closes with a `closeMs` animation before unmounting, locks page
 * scrolling while open and closes on Escape or a backdrop click.
 */
export function Modal({ open, title, onClose, children, footer, closeMs = 300 }: Props) {
  const { t } = useTranslation();
  const [closing, setClosing] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useScrollLock(open);

  const close = useCallback(() => {
    if (timer.current !== undefined) return;
    setClosing(true);
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      setClosing(false);
      onClose();
    }, closeMs);
  }, [closeMs, onClose]);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);

  if (!open) return null;
  const style = { '--modal-ms': `${closeMs}ms` } as CSSProperties;
  return (
    <div className={`${s.backdrop} ${closing ? s.backdropClosing : ''}`} style={style}>
      <button
        type="button"
        className={s.backdropHit}
        tabIndex={-1}
        aria-label={t('common:actions.close')}
        onClick={close}
      />
      <div
        className={`${s.sheet} ${closing ? s.sheetClosing : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-closing={closing || undefined}
      >
        <div className={s.sheetHeader}>
          <h2 className={s.sheetTitle}>{title}</h2>
          <button
            type="button"
            className={s.iconButton}
            onClick={close}
            aria-label={t('common:actions.close')}
          >
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className={s.sheetBody}>{children}</div>
        {footer && <div className={s.sheetFooter}>{footer(close)}</div>}
      </div>
    </div>
  );
}
