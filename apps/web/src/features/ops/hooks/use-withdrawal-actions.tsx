import type { OpsWithdrawal } from '@p2p/contract';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { approveWithdrawal, completeWithdrawal, rejectWithdrawal, retryWithdrawal } from '../api/withdrawals';
import type { PendingAction } from '../components/ConfirmDialog';
import type { RowAction } from '../components/RowActions';
import { withdrawalErrorText } from '../withdrawal-error';
import { reasonField, useConfirmAction } from './use-confirm-action';

type Details = (w: OpsWithdrawal) => PendingAction['details'];

interface Ctx {
  t: TFunction<['ops']>;
  confirm: (action: PendingAction) => void;
  details: Details;
}

/** The facts of the confirmation, with the payout worker's last error when there is one. */
function withError({ t, details }: Ctx, w: OpsWithdrawal): PendingAction['details'] {
  return [
    ...details(w),
    ...(w.lastError
      ? [{ label: t('ops:withdrawals.lastError'), value: withdrawalErrorText(t, w.lastError) }]
      : []),
  ];
}

function approve(c: Ctx, w: OpsWithdrawal): void {
  const { t } = c;
  c.confirm({
    title: t('ops:withdrawals.approveTitle', { id: w.withdrawalId }),
    details: c.details(w),
    note: t('ops:withdrawals.approveNote'),
    confirmLabel: t('ops:withdrawals.approve'),
    tone: 'primary',
    run: () =>
      approveWithdrawal(w.withdrawalId).then(() => t('ops:withdrawals.approved', { id: w.withdrawalId })),
  });
}

function retry(c: Ctx, w: OpsWithdrawal): void {
  const { t } = c;
  c.confirm({
    title: t('ops:withdrawals.retryTitle', { id: w.withdrawalId }),
    details: withError(c, w),
    note: t('ops:withdrawals.retryNote'),
    confirmLabel: t('ops:withdrawals.retry'),
    tone: 'primary',
    run: () =>
      retryWithdrawal(w.withdrawalId).then(() => t('ops:withdrawals.retried', { id: w.withdrawalId })),
  });
}

function markSent(c: Ctx, w: OpsWithdrawal): void {
  const { t } = c;
  c.confirm({
    title: t('ops:withdrawals.completeTitle', { id: w.withdrawalId }),
    details: c.details(w),
    note: t('ops:withdrawals.completeNote'),
    confirmLabel: t('ops:withdrawals.complete'),
    tone: 'primary',
    fields: [{ name: 'txid', kind: 'txid', label: t('ops:fields.txid') }],
    run: (v) =>
      completeWithdrawal(w.withdrawalId, v.txid ?? '').then(() =>
        t('ops:withdrawals.completed', { id: w.withdrawalId }),
      ),
  });
}

function reject(c: Ctx, w: OpsWithdrawal): void {
  const { t } = c;
  c.confirm({
    title: t('ops:withdrawals.rejectTitle', { id: w.withdrawalId }),
    details: withError(c, w),
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
}

/** The buttons of one row, by its state (see useWithdrawalActions). */
function rowActions(c: Ctx, w: OpsWithdrawal, paidOnChain: boolean | undefined): RowAction[] {
  const { t } = c;
  const id = w.withdrawalId;
  const rejectAction: RowAction = {
    label: t('ops:withdrawals.reject'),
    testId: `reject-${id}`,
    onClick: () => reject(c, w),
    outline: true,
  };
  if (w.status === 'PENDING') {
    // until the custody view says how the coin is paid, neither approve nor "mark sent" is offered
    if (paidOnChain === undefined) return [rejectAction];
    const first: RowAction = paidOnChain
      ? { label: t('ops:withdrawals.approve'), testId: `approve-${id}`, onClick: () => approve(c, w) }
      : { label: t('ops:withdrawals.complete'), testId: `send-${id}`, onClick: () => markSent(c, w) };
    return [first, rejectAction];
  }
  if (w.status === 'APPROVED') return [rejectAction];
  if (w.status === 'FAILED')
    return [
      { label: t('ops:withdrawals.retry'), testId: `retry-${id}`, onClick: () => retry(c, w) },
      rejectAction,
    ];
  return [];
}

/**
 * The withdrawal queue's actions per state (DECISIONS §5, §18), each behind a confirmation naming the member,
 * coin, amount and destination: PENDING → approve (a coin the payout worker pays on chain) or mark sent with
 * the TxID (a coin paid by hand; `paidOnChain` undefined while unknown: neither), and reject; APPROVED (not yet sent) → reject; FAILED → retry by replacement,
 * or reject. BROADCAST, COMPLETED and REJECTED have none.
 */
export function useWithdrawalActions(details: Details): {
  forRow: (w: OpsWithdrawal, paidOnChain: boolean | undefined) => RowAction[];
  dialog: ReactNode;
} {
  const { t } = useTranslation(['ops']);
  const { confirm, dialog } = useConfirmAction();
  const c: Ctx = { t, confirm, details };
  return { forRow: (w, paidOnChain) => rowActions(c, w, paidOnChain), dialog };
}
