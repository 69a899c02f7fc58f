import { formatKrw } from '@p2p/contract/money.ts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { formatTime } from '../../../lib/format-time';
import { useDisputeQueue } from '../api/disputes';
import { PagedTable } from '../components/PagedTable';
import { PageTitle } from '../components/Table';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';
import { opsPaths } from '../paths';
import DisputeDetail from './DisputeDetail';
import d from './disputes.module.css';

/** Seconds as "2 h 5 min" / "12 min" / "< 1 min" in the console's language. */
export function formatWaiting(t: (k: string, o?: Record<string, unknown>) => string, sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  if (h > 0) return t('ops:disputes.waitHm', { h, m });
  return m > 0 ? t('ops:disputes.waitM', { m }) : t('ops:disputes.waitNow');
}

/**
 * /ops/disputes (DECISIONS §11): the dispute queue, oldest first with the time each has waited, who opened
 * it and why; ?order=<id> opens one dispute (DisputeDetail) to settle it.
 */
export default function DisputesPage() {
  const [params] = useSearchParams();
  const id = Number.parseInt(params.get('order') ?? '', 10);
  if (Number.isSafeInteger(id) && id > 0) return <DisputeDetail orderId={id} />;
  return <DisputeQueue />;
}

function DisputeQueue() {
  const { t } = useTranslation(['ops']);
  const pager = useCursorPager('disputes');
  const queue = useDisputeQueue(pager.cursor);
  return (
    <>
      <PageTitle title={t('ops:disputes.title')} sub={t('ops:disputes.sub')}>
        <Button variant="outline" size="small" onClick={() => void queue.refetch()}>
          {t('ops:actions.refresh')}
        </Button>
      </PageTitle>
      <PagedTable
        testId="ops-disputes"
        columns={[
          t('ops:disputes.waiting'),
          t('ops:orders.id'),
          t('ops:disputes.reason'),
          t('ops:orders.qty'),
          t('ops:disputes.parties'),
          t('ops:table.actions'),
        ]}
        list={queue}
        pager={pager}
        row={(o) => (
          <tr key={o.orderId} data-testid={`dispute-row-${o.orderId}`}>
            <td className={s.nowrap}>
              <strong>{formatWaiting(t, o.waitingSec ?? 0)}</strong>
              <div className={s.sub}>{formatTime(o.disputedAt)}</div>
            </td>
            <td className={s.num}>
              <strong>#{o.orderId}</strong>
            </td>
            <td>
              {o.dispute ? t(`ops:disputes.reasons.${o.dispute.reason}`) : '-'}
              <div className={s.sub}>{o.dispute ? t(`ops:disputes.openedBy.${o.dispute.openedBy}`) : ''}</div>
            </td>
            <td className={s.num}>
              {o.requestQty} {o.coinCode}
              <div className={s.sub}>
                {formatKrw(o.requestKrwAmount)} {t('ops:won')}
              </div>
            </td>
            <td>
              {t('ops:orders.buyer')}: {o.buyer.nickname}
              <div className={s.sub}>
                {t('ops:orders.seller')}: {o.seller.nickname}
              </div>
            </td>
            <td>
              <Link
                className={d.openLink}
                to={`${opsPaths.disputes}?order=${o.orderId}`}
                data-testid={`dispute-open-${o.orderId}`}
              >
                {t('ops:disputes.open')}
              </Link>
            </td>
          </tr>
        )}
      />
    </>
  );
}
