import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { type ActionField, ConfirmDialog, type PendingAction } from '../components/ConfirmDialog';

/**
 * "Confirm an action, call it, toast, refresh" for a console page: `confirm(action)` opens the
 * confirmation dialog, which runs the call, toasts the outcome and refreshes the lists (ConfirmDialog);
 * render `dialog` once in the page.
 */
export function useConfirmAction(): { confirm: (action: PendingAction) => void; dialog: ReactNode } {
  const [action, setAction] = useState<PendingAction | null>(null);
  const dialog = action && <ConfirmDialog action={action} onDone={() => setAction(null)} />;
  return { confirm: setAction, dialog };
}

/** The required "reason" input of an operator action (kept in the audit log, DECISIONS §8). */
export function reasonField(t: TFunction<['ops']>): ActionField {
  return { name: 'reason', kind: 'reason', label: t('ops:fields.reason') };
}
