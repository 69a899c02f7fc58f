import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';
import s from '../trade.module.css';

/**
 * Copies `value` to the clipboard and confirms with a toast (the member pastes the account number and the
 * amount into their bank app, DECISIONS §11). A refused clipboard says so instead of failing silently.
 */
export function CopyButton({
  value,
  label,
  done,
  testId,
}: {
  value: string;
  label: string;
  done: string;
  testId: string;
}) {
  const { t } = useTranslation('trade');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify.success(done);
    } catch {
      notify.error(t('protocol.copyFailed'));
    }
  };
  return (
    <button type="button" className={s.copyButton} onClick={() => void copy()} data-testid={testId}>
      {label}
    </button>
  );
}
