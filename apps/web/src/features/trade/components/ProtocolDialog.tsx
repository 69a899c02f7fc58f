import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { WarningIcon } from '../../../components/ui/ConfirmModal';
import { Modal } from '../../../components/ui/Modal';
import s from '../trade.module.css';

/**
 * A confirmation sheet of the trade protocol: what happens, to which order, for how much; the confirm
 * button is red, under SPEC §2's warning icon, when the step cannot be undone (cancel, reject, release: the
 * 예 / 아니오 confirm of cancellations). `onConfirm` resolves true when the sheet may close (false keeps it
 * open, e.g. after a refusal shown inside it).
 */
export function ProtocolDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger,
  busy,
  disabled,
  onConfirm,
  onClose,
  testId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  busy?: boolean;
  disabled?: boolean;
  onConfirm: () => Promise<boolean>;
  onClose: () => void;
  testId: string;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      closeMs={200}
      footer={(close) => (
        <div className={s.dialogButtons}>
          <Button variant="outline" onClick={close} disabled={busy} data-testid="confirm-no">
            {cancelLabel}
          </Button>
          <Button
            className={danger ? s.danger : undefined}
            disabled={busy || disabled}
            onClick={() => void onConfirm().then((ok) => ok && close())}
            data-testid="confirm-yes"
          >
            {confirmLabel}
          </Button>
        </div>
      )}
    >
      <div className={s.dialogBody} data-testid={testId}>
        {danger && <WarningIcon />}
        {children}
      </div>
    </Modal>
  );
}
