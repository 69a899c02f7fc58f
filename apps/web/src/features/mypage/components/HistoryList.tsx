import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InfiniteList, type InfinitePages } from '../../../components/ui/InfiniteList';

interface Props<T> {
  query: InfinitePages<T>;
  keyOf: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  /** The tab's own empty line (구매 내역이 없어요. ...). */
  empty: string;
  testId: string;
}

/**
 * One /myinfo history tab's list (SPEC §2: purchases, sell registrations, sell history): infinite scroll with
 * the shared loading, end and error lines (one widget for the three tabs).
 */
export function HistoryList<T>({ query, keyOf, renderItem, empty, testId }: Props<T>) {
  const { t } = useTranslation('mypage');
  return (
    <InfiniteList
      query={query}
      keyOf={keyOf}
      renderItem={renderItem}
      texts={{ empty, loading: t('trade:list.loading'), end: t('history.end'), error: t('history.error') }}
      testId={testId}
    />
  );
}
