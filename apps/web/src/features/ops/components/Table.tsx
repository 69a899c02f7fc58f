import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import type { Page } from '../api/client';
import type { CursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

interface TableProps {
  /** Column headers; the body rows are the children. */
  columns: string[];
  loading: boolean;
  error: unknown;
  empty: boolean;
  onRetry: () => void;
  testId: string;
  children: ReactNode;
}

/**
 * A wide data table for the console: scrolls sideways on a phone instead of squeezing the columns, with
 * the loading, error (with retry) and empty states as a full-width row.
 */
export function OpsTable({ columns, loading, error, empty, onRetry, testId, children }: TableProps) {
  const { t } = useTranslation(['ops', 'common']);
  let state: ReactNode = null;
  if (error) {
    state = (
      <span className={s.stateError}>
        {errorText(error, 'ops:errors.generic', 'ops')}{' '}
        <Button variant="outline" size="small" onClick={onRetry}>
          {t('common:actions.retry')}
        </Button>
      </span>
    );
  } else if (loading) state = t('common:loading');
  else if (empty) state = t('ops:table.empty');
  return (
    <div className={`${cardClassName} ${s.tableWrap}`}>
      <table className={s.table} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {state ? (
            <tr>
              <td colSpan={columns.length} className={s.stateCell}>
                {state}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

interface PagerProps {
  /** The cursor stack of the list (useCursorPager). */
  pager: CursorPager;
  /** The page shown, undefined while the first one loads. */
  page: Page<unknown> | undefined;
}

/** A list's total as shown: the count, or "1,000+" when the API stopped counting at its cap (issue 27). */
export function totalLabel(page: Page<unknown> | undefined): string {
  if (!page) return '0';
  const n = page.totalCount.toLocaleString('en-US');
  return page.totalCapped ? `${n}+` : n;
}

/** Previous / next over a keyset list, with the page number and the total count of rows. */
export function Pager({ pager, page }: PagerProps) {
  const { t } = useTranslation(['ops']);
  const nextCursor = page?.nextCursor;
  return (
    <div className={s.pager}>
      <span className={s.muted} data-testid="pager-info">
        {t('ops:table.pageOf', { page: pager.page, total: totalLabel(page) })}
      </span>
      <div className={s.pagerButtons}>
        <Button variant="outline" size="small" disabled={!pager.hasPrev} onClick={pager.prev}>
          {t('ops:table.prev')}
        </Button>
        <Button
          variant="outline"
          size="small"
          disabled={!nextCursor}
          onClick={() => pager.next(nextCursor ?? null)}
          data-testid="pager-next"
        >
          {t('ops:table.next')}
        </Button>
      </div>
    </div>
  );
}

/** A page's title line with an optional description and controls (filters) on the right. */
export function PageTitle({ title, sub, children }: { title: string; sub?: string; children?: ReactNode }) {
  return (
    <div className={s.pageTitle}>
      <div>
        <h1 className={s.h1}>{title}</h1>
        {sub && <p className={s.muted}>{sub}</p>}
      </div>
      {children && <div className={s.toolbar}>{children}</div>}
    </div>
  );
}

/** A long value (address, TxID) in monospace that wraps instead of widening the table. */
export function Mono({ children }: { children: ReactNode }) {
  return <span className={s.monoWrap}>{children}</span>;
}
