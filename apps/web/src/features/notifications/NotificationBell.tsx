import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import l from '../../components/layout/layout.module.css';
import { paths } from '../../config/paths';
import m from '../mypage/mypage.module.css';
import { useUnreadCount } from './api';

/** The header's link to /notifications with the unread count (DECISIONS §12); nothing when signed out. */
export function NotificationBell({ loggedIn }: { loggedIn: boolean }) {
  const { t } = useTranslation();
  const unread = useUnreadCount(loggedIn).data ?? 0;
  if (!loggedIn) return null;
  return (
    <Link to={paths.notifications.path} className={l.textLink} data-testid="header-notifications">
      {t('common:notifications.title')}
      {unread > 0 && (
        <span className={m.badge} data-testid="header-unread">
          <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
          <span className={m.srOnly}>{t('common:notifications.unread', { count: unread })}</span>
        </span>
      )}
    </Link>
  );
}
