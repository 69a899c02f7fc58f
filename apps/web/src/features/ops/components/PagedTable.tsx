import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Page } from '../api/client';
import type { CursorPager } from '../hooks/use-cursor-pager';
import { OpsTable, Pager } from './Table';

interface PagedTableProps<T> {
  testId: string;
  columns: string[];
  /** The query of the current page (its loading, error and retry drive the table's state row). */
  list: UseQueryResult<Page<T>>;
  pager: CursorPager;
  /** One `<tr>` (with its key) per item of the page. */
  row: (item: T) => ReactNode;
}

/** A console list page's table and its pager: the rows of the current page, then previous / next. */
export function PagedTable<T>({ testId, columns, list, pager, row }: PagedTableProps<T>) {
  const page = list.data;
  return (
    <>
      <OpsTable
        testId={testId}
        columns={columns}
        loading={list.isPending}
        error={list.error}
        empty={page?.list.length === 0}
        onRetry={() => void list.refetch()}
      >
        {page?.list.map((item) => row(item))}
      </OpsTable>
      <Pager pager={pager} page={page} />
    </>
  );
}
