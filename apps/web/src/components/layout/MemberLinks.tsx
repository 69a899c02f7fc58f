import { useTranslation } from 'react-i18next';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { useLiveEvents } from '../../features/notifications/use-live-events';
import { useLogout } from '../../lib/use-logout';
import l from './layout.module.css';

export { BottomTabs } from './BottomTabs';
export { LiveOrdersCard } from './LiveOrdersCard';

/**
 * The main header's links for a signed-in member: notifications with the unread count and logout (my page
 * with the seller's waiting badge lives in the bottom tab bar, DECISIONS §11, §12). Its own chunk, loaded
 * only for a signed-in member, so a visitor's landing page carries none of it (DECISIONS §16).
 */
export default function MemberLinks() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <>
      <NotificationBell loggedIn />
      <button type="button" className={l.textLink} onClick={() => void logout()} data-testid="header-logout">
        {t('common:nav.logout')}
      </button>
    </>
  );
}

/**
 * The live-event stream of a signed-in member (features/notifications/use-live-events.ts), as a component
 * that RootLayout loads after the first render and mounts only while signed in: the fetch-based SSE client
 * is not part of a visitor's landing page.
 */
export function LiveEvents() {
  useLiveEvents();
  return null;
}
