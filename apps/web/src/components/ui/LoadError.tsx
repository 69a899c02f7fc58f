import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/toast';
import { Button } from './Button';
import { Card } from './Card';
import w from './widgets.module.css';

interface Props {
  /** What failed to load, e.g. 거래 목록을 불러오지 못했어요. */
  message: string;
  onRetry: () => unknown;
  /** True while the retry is on its way: the button waits instead of stacking requests. */
  retrying?: boolean;
  /** When the failure happened (TanStack `errorUpdatedAt`): a new failure toasts again. */
  failedAt?: number;
  testId?: string;
}

/**
 * A list that failed to load: a toast once per failure, and where the list would be the message
 * with a retry button, never mistaken for the empty state. Shared by the trade list, the histories and the
 * wallet tab.
 */
export function LoadError({ message, onRetry, retrying, failedAt, testId }: Props) {
  const { t } = useTranslation('common');
  useEffect(() => {
    // failedAt is the key: the same screen failing again after a retry says so again.
    if (failedAt !== undefined) notify.error(message);
  }, [message, failedAt]);
  return (
    <Card className={w.loadError} data-testid={testId}>
      <p className={w.loadErrorText}>{message}</p>
      <Button
        variant="outline"
        onClick={() => void onRetry()}
        disabled={retrying}
        aria-busy={retrying}
        data-testid={testId ? `${testId}-retry` : undefined}
      >
        {t('actions.retry')}
      </Button>
    </Card>
  );
}
