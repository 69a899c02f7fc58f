import { UNMATCHED_STATUSES, type UnmatchedPayment, type UnmatchedStatus } from '@p2p/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/format-time';
import { assignUnmatched, returnUnmatched, useUnmatchedPayments } from '../api/chain';
import { AssignMemberDialog, type AssignTarget } from '../components/AssignMemberDialog';
import { ChainStatusPanel } from '../components/ChainStatusPanel';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

function statusParam(v: string | null): UnmatchedStatus {
  return (UNMATCHED_STATUSES as readonly string[]).includes(v ?? '') ? (v as UnmatchedStatus) : 'UNMATCHED';
}

/**
 * The confirmations of an unmatched payment's two operator actions (DECISIONS §17): `assign` credits it to the
 * picked member's wallet, `recordReturn` records the TxID it was sent back with; both ask for a reason, toast the
 * outcome and refresh the queue (ConfirmDialog). Render `dialog` once in the page.
 */
function useUnmatchedActions() {
  const { t } = useTranslation(['ops']);
  const { confirm, dialog } = useConfirmAction();
  const details = (p: UnmatchedPayment) => [
    { label: t('ops:unmatched.id'), value: `#${p.id}` },
    { label: t('ops:unmatched.amount'), value: `${p.amount} ${p.coinCode}` },
    { label: t('ops:unmatched.txid'), value: <Mono>{p.txid}</Mono> },
    { label: t('ops:unmatched.tag'), value: p.destinationTag ?? t('ops:unmatched.noTag') },
  ];
  const assign = (p: UnmatchedPayment, { member, wallet }: AssignTarget) =>
    confirm({
      title: t('ops:unmatched.assignTitle', { id: p.id, loginId: member.loginId }),
      details: [
        ...details(p),
        {
          label: t('ops:unmatched.member'),
          value: `${member.loginId} · ${member.nickname} (#${member.id})`,
        },
        { label: t('ops:unmatched.wallet'), value: `#${wallet.id} · ${wallet.balance} ${wallet.coinCode}` },
      ],
      note: t('ops:unmatched.assignNote', { amount: p.amount, coin: p.coinCode, loginId: member.loginId }),
      confirmLabel: t('ops:unmatched.assign'),
      tone: 'primary',
      fields: [reasonField(t)],
      run: (v) =>
        assignUnmatched(p.id, member.id, v.reason ?? '').then((done) =>
          t('ops:unmatched.assigned', { id: p.id, loginId: member.loginId, transferId: done.transferId }),
        ),
    });
  const recordReturn = (p: UnmatchedPayment) =>
    confirm({
      title: t('ops:unmatched.returnTitle', { id: p.id }),
      details: details(p),
      note: t('ops:unmatched.returnNote'),
      confirmLabel: t('ops:unmatched.return'),
      tone: 'danger',
      fields: [{ name: 'txid', kind: 'txid', label: t('ops:unmatched.returnTxid') }, reasonField(t)],
      run: (v) =>
        returnUnmatched(p.id, v.txid ?? '', v.reason ?? '').then(() =>
          t('ops:unmatched.returned', { id: p.id }),
        ),
    });
  return { assign, recordReturn, dialog };
}

/**
 * One row of the unmatched queue: the payment, its confirmations, status and outcome; while it is UNMATCHED,
 * "assign" (only once it has its required confirmations) and "return".
 */
function UnmatchedRow(props: {
  payment: UnmatchedPayment;
  onAssign: (p: UnmatchedPayment) => void;
  onReturn: (p: UnmatchedPayment) => void;
}) {
  const { payment: p, onAssign, onReturn } = props;
  const { t } = useTranslation(['ops']);
  const confirming = p.confirmations < p.requiredConfirmations;
  return (
    <tr data-testid={`unmatched-row-${p.id}`} data-status={p.status}>
      <td className={s.num}>
        <strong>#{p.id}</strong>
        <div className={s.sub}>{formatTime(p.createdAt)}</div>
      </td>
      <td className={`${s.num} ${s.nowrap}`}>
        {p.amount} {p.coinCode}
      </td>
      <td>
        <Mono>{p.txid}</Mono>
        <div className={s.sub}>{p.address}</div>
      </td>
      <td className={s.num}>{p.destinationTag ?? t('ops:unmatched.noTag')}</td>
      <td className={`${s.num} ${s.nowrap}`}>
        {Math.min(p.confirmations, p.requiredConfirmations)}/{p.requiredConfirmations}
      </td>
      <td>
        <StatusBadge status={p.status} />
      </td>
      <td>
        {p.memberId !== null && (
          <div>{t('ops:unmatched.toMember', { memberId: p.memberId, transferId: p.transferId })}</div>
        )}
        {p.returnTxid && <Mono>{p.returnTxid}</Mono>}
        {p.reason && <div className={s.sub}>{p.reason}</div>}
        {p.decidedAt && <div className={s.sub}>{formatTime(p.decidedAt)}</div>}
      </td>
      <td>
        {p.status === 'UNMATCHED' && (
          <RowActions
            actions={[
              ...(confirming
                ? []
                : [
                    {
                      label: t('ops:unmatched.assign'),
                      testId: `assign-${p.id}`,
                      onClick: () => onAssign(p),
                    },
                  ]),
              {
                label: t('ops:unmatched.return'),
                testId: `return-${p.id}`,
                onClick: () => onReturn(p),
                outline: true,
              },
            ]}
          >
            {confirming && <span className={s.sub}>{t('ops:unmatched.confirming')}</span>}
          </RowActions>
        )}
      </td>
    </tr>
  );
}

/**
 * /ops/chain (DECISIONS §17): the chain watchers' status per coin, then the payments to the platform that match
 * no member (an XRP payment without a destination tag or with an unknown one). An operator assigns one to a
 * member (found by login ID or nickname, then confirmed with a reason: credited once, audit-logged) or records
 * that it was sent back (the return's TxID and a reason). Both toast the outcome and refresh the queue.
 */
export default function ChainPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const pager = useCursorPager(status);
  const payments = useUnmatchedPayments(status, pager.cursor);
  const { assign, recordReturn, dialog } = useUnmatchedActions();
  const [picking, setPicking] = useState<UnmatchedPayment | null>(null);

  return (
    <>
      <PageTitle title={t('ops:chain.title')} sub={t('ops:chain.sub')} />
      <ChainStatusPanel />
      <div className={s.sectionHead}>
        <div>
          <h2 className={s.h2}>{t('ops:unmatched.title')}</h2>
          <p className={s.muted}>{t('ops:unmatched.sub')}</p>
        </div>
        <FilterTabs
          label={t('ops:filters.status')}
          options={UNMATCHED_STATUSES.map((v) => ({ value: v, label: t(`ops:status.${v}`) }))}
          value={status}
          onChange={(v) => setParams({ status: v }, { replace: true })}
        />
      </div>
      <PagedTable
        testId="ops-unmatched"
        columns={[
          t('ops:unmatched.id'),
          t('ops:unmatched.amount'),
          t('ops:unmatched.txid'),
          t('ops:unmatched.tag'),
          t('ops:unmatched.confirmations'),
          t('ops:withdrawals.status'),
          t('ops:withdrawals.result'),
          t('ops:table.actions'),
        ]}
        list={payments}
        pager={pager}
        row={(p) => <UnmatchedRow key={p.id} payment={p} onAssign={setPicking} onReturn={recordReturn} />}
      />
      {picking && (
        <AssignMemberDialog
          payment={picking}
          onClose={() => setPicking(null)}
          onPick={(target) => {
            const p = picking;
            setPicking(null);
            assign(p, target);
          }}
        />
      )}
      {dialog}
    </>
  );
}
