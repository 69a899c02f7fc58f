import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { useScrollLock } from './useScrollLock';
import w from './widgets.module.css';

interface Props {
  open: boolean;
  title: string;
  message?: string;
  /** Defaults: 예 / 아니오 (common:actions.yes / no). */
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

const CLOSE_MS = 200;

/** The warning icon of SPEC §2's confirm modal (cancellations), shared by the trade protocol's sheets. */
export function WarningIcon() {
  return (
    <svg
      width="44"
      height="44"
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={w.warnIcon}
      data-testid="warning-icon"
    >
      <circle cx="12" cy="12" r="11" fill="#fff4e5" />
      <path d="M12 7v6" stroke="#f08c00" strokeWidth="2" strokeLinecap="round" />
      <circle cx="12" cy="16.5" r="1.2" fill="#f08c00" />
    </svg>
  );
}

/**
 * The confirm dialog of SPEC §2 (cancellations): title, message, warning icon, yes / no. Closing animates
 * for 200 ms (SPEC §9) before the choice is reported; page scrolling is locked while open.
 */
export function ConfirmModal({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: Props) {
  const { t } = useTranslation();
  const [closing, setClosing] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useScrollLock(open);

  const finish = useCallback((then: () => void) => {
    if (timer.current !== undefined) return;
    setClosing(true);
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      setClosing(false);
      then();
    }, CLOSE_MS);
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && finish(onCancel);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, finish, onCancel]);

  if (!open) return null;
  const style = { '--modal-ms': `${CLOSE_MS}ms` } as CSSProperties;
  return (
    <div className={`${w.overlay} ${closing ? w.overlayClosing : ''}`} style={style}>
      <div
        className={`${w.dialog} ${closing ? w.dialogClosing : ''}`}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        data-testid="confirm-modal"
      >
        <WarningIcon />
        <h2 id="confirm-title" className={w.dialogTitle}>
          {title}
        </h2>
        {message && <p className={w.dialogMessage}>{message}</p>}
        <div className={w.dialogButtons}>
          <Button variant="outline" onClick={() => finish(onCancel)} data-testid="confirm-no">
            {cancelLabel ?? t('common:actions.no')}
          </Button>
          <Button onClick={() => finish(onConfirm)} data-testid="confirm-yes">
            {confirmLabel ?? t('common:actions.yes')}
          </Button>
        </div>
      </div>
    </div>
  );
}
