import { ORDER_STATUSES, type OrderStatus, orderActionsFor } from '@p2p/contract/enums.ts';
import { formatKrw } from '@p2p/contract/money.ts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { formatTime } from '../../../lib/format-time';
import { cancelOrder, completeOrder, type OpsOrder, useOpsOrders } from '../api/orders';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';
import { opsPaths } from '../paths';
import d from './disputes.module.css';

const ALL = 'ALL';

function filterOf(params: URLSearchParams): { status?: OrderStatus; memberId?: number } {
  const st = params.get('status');
  const status = (ORDER_STATUSES as readonly string[]).includes(st ?? '') ? (st as OrderStatus) : undefined;
  const m = params.get('memberId') ?? '';
  return { status, memberId: /^\d{1,15}$/.test(m) && m !== '0' ? Number.parseInt(m, 10) : undefined };
}

/**
 * /ops/orders: any buy order, by status and/or member (buyer or seller). An order the transition table lets
 * an operator move (REQUESTED, PAID) is resolved by cancelling it (quantity back to the listing) or
 * completing it with the TxID (coins to the buyer), each with a reason for the audit log (DECISIONS §4, §8,
 * §11); a DISPUTED one links to its dispute page.
 */
export default function OrdersPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const pager = useCursorPager(`${filter.status ?? ALL}:${filter.memberId ?? ''}`);
  const orders = useOpsOrders(filter, pager.cursor);
  const [memberInput, setMemberInput] = useState(filter.memberId ? String(filter.memberId) : '');
  const { confirm, dialog } = useConfirmAction();

  const setFilter = (next: { status?: string; memberId?: string }) => {
    const p = new URLSearchParams();
    const status = next.status ?? filter.status;
    const memberId = next.memberId ?? (filter.memberId ? String(filter.memberId) : '');
    if (status && status !== ALL) p.set('status', status);
    if (memberId.trim()) p.set('memberId', memberId.trim());
    setParams(p, { replace: true });
  };
  const onMemberSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ memberId: memberInput });
  };

  const details = (o: OpsOrder) => [
    { label: t('ops:orders.id'), value: `#${o.orderId}` },
    { label: t('ops:orders.buyer'), value: `${o.buyerLoginId} (#${o.buyerId})` },
    { label: t('ops:orders.seller'), value: `${o.sellerLoginId} (#${o.sellerId})` },
    { label: t('ops:orders.qty'), value: `${o.requestQty} ${o.coinCode}` },
    { label: t('ops:orders.krw'), value: `${formatKrw(o.requestKrwAmount)} ${t('ops:won')}` },
    {
      label: t('ops:orders.dest'),
      value: o.destType === 'EXTERNAL' ? <Mono>{o.destAddress}</Mono> : t('ops:orders.internal'),
    },
  ];
  const cancel = (o: OpsOrder) =>
    confirm({
      title: t('ops:orders.cancelTitle', { id: o.orderId }),
      details: details(o),
      note: t('ops:orders.cancelNote'),
      confirmLabel: t('ops:orders.cancel'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) =>
        cancelOrder(o.orderId, v.reason ?? '').then(() => t('ops:orders.canceled', { id: o.orderId })),
    });
  const complete = (o: OpsOrder) =>
    confirm({
      title: t('ops:orders.completeTitle', { id: o.orderId }),
      details: details(o),
      note: o.destType === 'EXTERNAL' ? t('ops:orders.completeNoteExternal') : t('ops:orders.completeNote'),
      confirmLabel: t('ops:orders.complete'),
      tone: 'primary',
      fields: [reasonField(t), { name: 'txid', kind: 'txid', label: t('ops:fields.orderTxid') }],
      run: (v) =>
        completeOrder(o.orderId, v.reason ?? '', v.txid ?? '').then(() =>
          t('ops:orders.completed', { id: o.orderId }),
        ),
    });

  const options = [...ORDER_STATUSES, ALL].map((v) => ({ value: v, label: t(`ops:status.${v}`) }));
  return (
    <>
      <PageTitle title={t('ops:orders.title')} sub={t('ops:orders.sub')}>
        <FilterTabs
          label={t('ops:filters.status')}
          options={options}
          value={filter.status ?? ALL}
          onChange={(v) => setFilter({ status: v })}
        />
        <form className={s.inlineForm} onSubmit={onMemberSubmit}>
          <span className={s.inlineLabel}>{t('ops:orders.memberIdPlaceholder')}</span>
          <input
            className={s.searchInput}
            inputMode="numeric"
            placeholder={t('ops:orders.memberIdPlaceholder')}
            aria-label={t('ops:orders.memberId')}
            value={memberInput}
            onChange={(e) => setMemberInput(e.target.value.replace(/\D/g, ''))}
            data-testid="orders-member-id"
          />
          <Button type="submit" size="small" variant="secondary" data-testid="orders-member-apply">
            {t('ops:filters.apply')}
          </Button>
        </form>
      </PageTitle>
      <PagedTable
        testId="ops-orders"
        columns={[
          t('ops:orders.id'),
          t('ops:orders.buyer'),
          t('ops:orders.seller'),
          t('ops:orders.qty'),
          t('ops:orders.dest'),
          t('ops:orders.status'),
          t('ops:orders.result'),
          t('ops:table.actions'),
        ]}
        list={orders}
        pager={pager}
        row={(o) => (
          <tr key={o.orderId} data-testid={`order-row-${o.orderId}`}>
            <td className={s.num}>
              <strong>#{o.orderId}</strong>
              <div className={s.sub}>{t('ops:orders.ofListing', { id: o.listingId })}</div>
              <div className={s.sub}>{formatTime(o.createdAt)}</div>
            </td>
            <td>
              {o.buyerLoginId}
              <div className={s.sub}>#{o.buyerId}</div>
            </td>
            <td>
              {o.sellerLoginId}
              <div className={s.sub}>#{o.sellerId}</div>
            </td>
            <td className={s.num}>
              {o.requestQty} {o.coinCode}
              <div className={s.sub}>
                {formatKrw(o.requestKrwAmount)} {t('ops:won')}
              </div>
            </td>
            <td>{o.destType === 'EXTERNAL' ? <Mono>{o.destAddress}</Mono> : t('ops:orders.internal')}</td>
            <td>
              <StatusBadge status={o.status} />
            </td>
            <td>
              {o.txid && <Mono>{o.txid}</Mono>}
              {o.reason && <div className={s.sub}>{o.reason}</div>}
              {o.completedAt && <div className={s.sub}>{formatTime(o.completedAt)}</div>}
            </td>
            <td>
              {o.status === 'DISPUTED' ? (
                // a dispute is settled on its own page, with both statements and both accounts in view
                <Link
                  className={d.openLink}
                  to={`${opsPaths.disputes}?order=${o.orderId}`}
                  data-testid={`to-dispute-${o.orderId}`}
                >
                  {t('ops:disputes.open')}
                </Link>
              ) : (
                orderActionsFor(o.status, 'operator').length > 0 && (
                  <RowActions
                    actions={[
                      {
                        label: t('ops:orders.complete'),
                        testId: `complete-${o.orderId}`,
                        onClick: () => complete(o),
                      },
                      {
                        label: t('ops:orders.cancel'),
                        testId: `cancel-${o.orderId}`,
                        onClick: () => cancel(o),
                        outline: true,
                      },
                    ]}
                  />
                )
              )}
            </td>
          </tr>
        )}
      />
      {dialog}
    </>
  );
}
