import { useTranslation } from 'react-i18next';
import m from '../mypage.module.css';

/**
 * A count of orders waiting for the member (DECISIONS §11: the seller's badge), with its meaning for
 * screen readers; nothing when zero.
 */
export function WaitingBadge({ count, testId }: { count: number | undefined; testId: string }) {
  // common, not mypage: the badge sits in the landing page's header, which loads only common and home
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <span className={m.badge} data-testid={testId}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className={m.srOnly}>{t('common:nav.waitingBadge', { count })}</span>
    </span>
  );
}
