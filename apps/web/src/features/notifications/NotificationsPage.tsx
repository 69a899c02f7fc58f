import type { Notification } from '@p2p/contract/trade-room.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/Page';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { paths } from '../../config/paths';
import { formatWhen } from '../../lib/format-time';
import { notificationListQueryOptions, useMarkRead } from './api';
import { notificationText } from './notification-text';
import n from './notifications.module.css';

/**
 * Where a notification leads: the order's detail from the member's side, the listing's, or for a credited
 * deposit the wallet it went to (its id in navigation state, as /wallet takes it).
 */
function targetOf(x: Notification): { to: string; state?: { walletId: number } } | null {
  if (x.orderId !== null && x.orderRole) {
    const type = x.orderRole === 'BUYER' ? 'purchase' : 'sell-history';
    return { to: `${paths.viewDetails.path}?id=${x.orderId}&type=${type}` };
  }
  if (x.listingId !== null) return { to: `${paths.viewDetails.path}?id=${x.listingId}&type=sell-register` };
  const walletKinds = ['DEPOSIT_CREDITED', 'WITHDRAWAL_COMPLETED', 'WITHDRAWAL_FAILED'];
  if (walletKinds.includes(x.kind) && typeof x.data.walletId === 'number') {
    return { to: paths.wallet.path, state: { walletId: x.data.walletId } };
  }
  return null;
}

/**
 * The notifications that were unread when the member saw them on this visit: they stay marked new while the
 * page is open even though seeing them marks them read (and clears the header badge).
 */
function useUnreadAtOpen(unreadIds: number[]): Set<number> {
  const [seen] = useState(() => new Set<number>());
  for (const id of unreadIds) seen.add(id);
  return seen;
}

/** One notification: 새 알림 while it was unread on opening, its text, its time and where it leads. */
function NotificationItem({ x, unread }: { x: Notification; unread: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const to = targetOf(x);
  return (
    <li>
      <Card
        className={`${n.item} ${unread ? n.unread : ''}`}
        data-testid="notification"
        data-kind={x.kind}
        data-unread={unread}
      >
        <p className={n.text}>
          {unread && (
            <span className={n.newTag} data-testid="notification-new">
              {t('common:notifications.new')}
            </span>
          )}
          {notificationText(x, t)}
        </p>
        <time className={n.time} dateTime={x.createdAt}>
          {formatWhen(x.createdAt)}
        </time>
        {to && (
          <Button
            variant="outline"
            size="small"
            onClick={() => navigate(to.to, { state: to.state })}
            data-testid="notification-open"
          >
            {x.kind !== 'MESSAGE' && x.orderId === null && x.listingId === null
              ? t('common:notifications.openWallet')
              : t('common:notifications.open')}
          </Button>
        )}
      </Card>
    </li>
  );
}

/**
 * /notifications (DECISIONS §12): the member's notifications, newest first, 20 a page; what is shown is
 * marked read, so the header badge clears. Live events refresh the list (use-live-events.ts).
 */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const q = useInfiniteQuery(notificationListQueryOptions());
  const markRead = useMarkRead();
  const items = q.data?.pages.flatMap((p) => p.list) ?? [];
  const unreadIds = items.filter((x) => !x.read).map((x) => x.id);
  const unreadAtOpen = useUnreadAtOpen(unreadIds);
  const unreadKey = unreadIds.join(',');
  const mutate = markRead.mutate;
  useEffect(() => {
    if (unreadKey) mutate(unreadKey.split(',').map(Number).slice(0, 100));
  }, [unreadKey, mutate]);

  return (
    <Page title={t('common:notifications.title')}>
      {q.isSuccess && items.length === 0 && <p className={n.empty}>{t('common:notifications.empty')}</p>}
      <ul className={n.list} data-testid="notifications">
        {items.map((x) => (
          <NotificationItem key={x.id} x={x} unread={unreadAtOpen.has(x.id)} />
        ))}
      </ul>
      {q.hasNextPage && (
        <Button
          variant="outline"
          block
          disabled={q.isFetchingNextPage}
          onClick={() => void q.fetchNextPage()}
        >
          {t('common:notifications.more')}
        </Button>
      )}
    </Page>
  );
}
