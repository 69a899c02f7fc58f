import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import s from '../ops.module.css';

/** One button of a table row: the label, its test id and what it opens (usually a confirmation). */
export interface RowAction {
  label: string;
  testId: string;
  onClick: () => void;
  /** The secondary (outlined) look, for the undoing or refusing action. */
  outline?: boolean;
}

/** The action buttons of a console table row, side by side (stacked on a phone), then any extra links. */
export function RowActions({ actions, children }: { actions: RowAction[]; children?: ReactNode }) {
  return (
    <div className={s.rowActions}>
      {actions.map((a) => (
        <Button
          key={a.testId}
          size="small"
          variant={a.outline ? 'outline' : 'primary'}
          onClick={a.onClick}
          data-testid={a.testId}
        >
          {a.label}
        </Button>
      ))}
      {children}
    </div>
  );
}
