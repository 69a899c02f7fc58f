import type { ReactNode } from 'react';
import w from './widgets.module.css';

/** Label/value rows of a receipt or detail card. */
export function KeyValueList({ children }: { children: ReactNode }) {
  return <dl className={w.kvList}>{children}</dl>;
}

/** One row: muted label left, value right (wraps long values such as addresses). */
export function KeyValue({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className={w.kvRow}>
      <dt className={w.kvLabel}>{label}</dt>
      <dd className={w.kvValue} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
