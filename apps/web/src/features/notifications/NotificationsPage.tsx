import type { Notification } from '@p2p/contract/trade-room.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/Page';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { paths } from '../../config/paths';
import { durationText } from '../../lib/format-time';
import { notificationListQueryOptions, useMarkRead } from './api';
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
 * The text key of a notification: a resolved dispute says its outcome (DECISIONS §11: {status} COMPLETED
 * or CANCELED, with the operator's reason and the time it took); other kinds their own text.
 */
function kindKey(x: Notification): string {
  const status = x.data.status;
  if (x.kind === 'DISPUTE_RESOLVED' && (status === 'COMPLETED' || status === 'CANCELED')) {
    return `DISPUTE_RESOLVED_${status}`;
  }
  return x.kind;
}

/**
 * /notifications (DECISIONS §12): the member's notifications, newest first, 20 a page; what is shown is
 * marked read, so the header badge clears. Live events refresh the list (use-live-events.ts).
 */
export default function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const q = useInfiniteQuery(notificationListQueryOptions());
  const markRead = useMarkRead();
  const items = q.data?.pages.flatMap((p) => p.list) ?? [];
  const unreadIds = items.filter((x) => !x.read).map((x) => x.id);
  const unreadKey = unreadIds.join(',');
  const mutate = markRead.mutate;
  useEffect(() => {
    if (unreadKey) mutate(unreadKey.split(',').map(Number).slice(0, 100));
  }, [unreadKey, mutate]);

  return (
    <Page title={t('common:notifications.title')}>
      {q.isSuccess && items.length === 0 && <p className={n.empty}>{t('common:notifications.empty')}</p>}
      <ul className={n.list} data-testid="notifications">
        {items.map((x) => {
          const to = targetOf(x);
          const text = t(`common:notifications.kinds.${kindKey(x)}`, {
            orderId: x.orderId ?? '',
            reason: typeof x.data.reason === 'string' ? x.data.reason : '',
            amount: typeof x.data.amount === 'string' ? x.data.amount : '',
            coinCode: typeof x.data.coinCode === 'string' ? x.data.coinCode : '',
            took: typeof x.data.tookSec === 'number' ? durationText(x.data.tookSec) : '-',
          });
          return (
            <li key={x.id}>
              <Card
                className={`${n.item} ${x.read ? '' : n.unread}`}
                data-testid="notification"
                data-kind={x.kind}
              >
                <p className={n.text}>{text}</p>
                <time className={n.time} dateTime={x.createdAt}>
                  {new Date(x.createdAt).toLocaleString(
                    i18n.language === 'kr' ? 'ko-KR' : i18n.language === 'jp' ? 'ja-JP' : 'en-US',
                  )}
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
        })}
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
