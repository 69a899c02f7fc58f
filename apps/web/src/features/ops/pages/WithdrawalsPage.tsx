import type { OpsWithdrawal } from '@p2p/contract';
import { WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/format-time';
import { completeWithdrawal, rejectWithdrawal, useOpsWithdrawals } from '../api/withdrawals';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

function statusParam(v: string | null): WithdrawalStatus {
  return (WITHDRAWAL_STATUSES as readonly string[]).includes(v ?? '') ? (v as WithdrawalStatus) : 'PENDING';
}

/**
 * /ops/withdrawals: external withdrawals (members' own and buy-order deliveries). Pending ones are marked
 * sent with the chain TxID or rejected with a reason, which refunds amount and fee (DECISIONS §5). An XRP
 * withdrawal shows its destination tag under the address, and its confirmations say the tag or that there is none.
 */
export default function WithdrawalsPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const pager = useCursorPager(status);
  const withdrawals = useOpsWithdrawals(status, pager.cursor);
  const { confirm, dialog } = useConfirmAction();

  const details = (w: OpsWithdrawal) => [
    { label: t('ops:withdrawals.id'), value: `#${w.withdrawalId}` },
    { label: t('ops:withdrawals.member'), value: `${w.loginId} (#${w.memberId})` },
    { label: t('ops:withdrawals.amount'), value: `${w.amount} ${w.coinCode}` },
    { label: t('ops:withdrawals.address'), value: <Mono>{w.address}</Mono> },
    // An XRP payment without the tag the member gave lands in the receiver's account unattributed.
    ...(w.coinCode === 'XRP'
      ? [
          {
            label: t('ops:withdrawals.destTag'),
            value: w.destTag === null ? t('ops:withdrawals.noTag') : <Mono>{w.destTag}</Mono>,
          },
        ]
      : []),
  ];
  const markSent = (w: OpsWithdrawal) =>
    confirm({
      title: t('ops:withdrawals.completeTitle', { id: w.withdrawalId }),
      details: details(w),
      note: t('ops:withdrawals.completeNote'),
      confirmLabel: t('ops:withdrawals.complete'),
      tone: 'primary',
      fields: [{ name: 'txid', kind: 'txid', label: t('ops:fields.txid') }],
      run: (v) =>
        completeWithdrawal(w.withdrawalId, v.txid ?? '').then(() =>
          t('ops:withdrawals.completed', { id: w.withdrawalId }),
        ),
    });
  const reject = (w: OpsWithdrawal) =>
    confirm({
      title: t('ops:withdrawals.rejectTitle', { id: w.withdrawalId }),
      details: details(w),
      note: w.buyOrderId
        ? t('ops:withdrawals.rejectNoteOrder', { member: w.refundMemberId, order: w.buyOrderId })
        : t('ops:withdrawals.rejectNote', { member: w.refundMemberId }),
      confirmLabel: t('ops:withdrawals.reject'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) =>
        rejectWithdrawal(w.withdrawalId, v.reason ?? '').then(() =>
          t('ops:withdrawals.rejected', { id: w.withdrawalId }),
        ),
    });

  return (
    <>
      <PageTitle title={t('ops:withdrawals.title')} sub={t('ops:withdrawals.sub')}>
        <FilterTabs
          label={t('ops:filters.status')}
          options={WITHDRAWAL_STATUSES.map((v) => ({ value: v, label: t(`ops:status.${v}`) }))}
          value={status}
          onChange={(v) => setParams({ status: v }, { replace: true })}
        />
      </PageTitle>
      <PagedTable
        testId="ops-withdrawals"
        columns={[
          t('ops:withdrawals.id'),
          t('ops:withdrawals.member'),
          t('ops:withdrawals.amount'),
          t('ops:withdrawals.address'),
          t('ops:withdrawals.order'),
          t('ops:withdrawals.status'),
          t('ops:withdrawals.result'),
          t('ops:table.actions'),
        ]}
        list={withdrawals}
        pager={pager}
        row={(w) => (
          <tr key={w.withdrawalId} data-testid={`withdrawal-row-${w.withdrawalId}`}>
            <td className={s.num}>
              <strong>#{w.withdrawalId}</strong>
              <div className={s.sub}>{formatTime(w.createdAt)}</div>
            </td>
            <td>
              {w.loginId}
              <div className={s.sub}>#{w.memberId}</div>
            </td>
            <td className={s.num}>
              {w.amount} {w.coinCode}
              <div className={s.sub}>{t('ops:withdrawals.feeOf', { fee: w.fee })}</div>
            </td>
            <td>
              <Mono>{w.address}</Mono>
              {w.destTag !== null && (
                <div className={s.sub} data-testid={`withdrawal-tag-${w.withdrawalId}`}>
                  {t('ops:withdrawals.tagOf', { tag: w.destTag })}
                </div>
              )}
            </td>
            <td className={s.num}>{w.buyOrderId ? `#${w.buyOrderId}` : '–'}</td>
            <td>
              <StatusBadge status={w.status} />
            </td>
            <td>
              {w.txid && <Mono>{w.txid}</Mono>}
              {w.reason && <div className={s.sub}>{w.reason}</div>}
              {w.completedAt && <div className={s.sub}>{formatTime(w.completedAt)}</div>}
            </td>
            <td>
              {w.status === 'PENDING' && (
                <RowActions
                  actions={[
                    {
                      label: t('ops:withdrawals.complete'),
                      testId: `send-${w.withdrawalId}`,
                      onClick: () => markSent(w),
                    },
                    {
                      label: t('ops:withdrawals.reject'),
                      testId: `reject-${w.withdrawalId}`,
                      onClick: () => reject(w),
                      outline: true,
                    },
                  ]}
                />
              )}
            </td>
          </tr>
        )}
      />
      {dialog}
    </>
  );
}
