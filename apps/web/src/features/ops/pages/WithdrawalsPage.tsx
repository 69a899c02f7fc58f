import type { OpsWithdrawal } from '@p2p/contract';
import { WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@p2p/contract/enums.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/format-time';
import { useOpsCustody, useOpsWithdrawals } from '../api/withdrawals';
import { CustodyPanel } from '../components/CustodyPanel';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { useCursorPager } from '../hooks/use-cursor-pager';
import { useWithdrawalActions } from '../hooks/use-withdrawal-actions';
import s from '../ops.module.css';
import { withdrawalErrorText } from '../withdrawal-error';

/**
 * What became of a withdrawal: its TxID linked to the coin's explorer (EXPLORER_TX_URL_<COIN>), why the payout
 * worker cannot go on (a signer refusal such as "above the signer's limit", a node error), the reason of a
 * rejection or failure, the tries and when it was approved and completed.
 */
function WithdrawalResult({ w }: { w: OpsWithdrawal }) {
  const { t } = useTranslation(['ops']);
  return (
    <>
      {w.txid &&
        (w.explorerUrl ? (
          <a
            href={w.explorerUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={s.monoWrap}
            data-testid={`withdrawal-explorer-${w.withdrawalId}`}
          >
            {w.txid}
          </a>
        ) : (
          <Mono>{w.txid}</Mono>
        ))}
      {w.lastError && (
        <p className={s.withdrawalError} data-testid={`withdrawal-error-${w.withdrawalId}`}>
          {t('ops:withdrawals.lastErrorOf', { error: withdrawalErrorText(t, w.lastError) })}
        </p>
      )}
      {w.reason && <div className={s.sub}>{w.reason}</div>}
      {w.attempts > 1 && (
        <div className={s.sub}>{t('ops:withdrawals.attemptsOf', { count: w.attempts })}</div>
      )}
      {w.approvedAt && (
        <div className={s.sub}>
          {w.approvedBy === null
            ? t('ops:withdrawals.autoApprovedAt', { time: formatTime(w.approvedAt) })
            : t('ops:withdrawals.approvedAt', { time: formatTime(w.approvedAt), by: w.approvedBy })}
        </div>
      )}
      {w.completedAt && <div className={s.sub}>{formatTime(w.completedAt)}</div>}
    </>
  );
}

/** What a confirmation names: the withdrawal, the member, amount and coin, the destination (and XRP's tag). */
function withdrawalDetails(t: TFunction<['ops']>, w: OpsWithdrawal) {
  return [
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
}

/** The table's columns (ops:withdrawals.<key>), then the actions. */
const COLUMNS = ['id', 'member', 'amount', 'address', 'order', 'status', 'result'] as const;

function statusParam(v: string | null): WithdrawalStatus {
  return (WITHDRAWAL_STATUSES as readonly string[]).includes(v ?? '') ? (v as WithdrawalStatus) : 'PENDING';
}

/**
 * /ops/withdrawals: external withdrawals (members' own and buy-order deliveries) above the custody panel
 * (DECISIONS §18). A pending one of a coin paid on chain is approved (the payout worker signs and sends it),
 * one of a coin paid by hand is marked sent with the chain TxID; pending, unsent approved and failed ones are
 * rejected with a reason, which refunds amount and fee (DECISIONS §5); a failed one is retried. An XRP
 * withdrawal shows its destination tag under the address, and its confirmations say the tag or that there is none.
 */
export default function WithdrawalsPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const pager = useCursorPager(status);
  const withdrawals = useOpsWithdrawals(status, pager.cursor);
  const custody = useOpsCustody();

  const actions = useWithdrawalActions((w) => withdrawalDetails(t, w));
  const paidOnChain = (coin: string) => custody.data?.find((c) => c.coinCode === coin)?.paidOnChain;

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
        columns={[...COLUMNS.map((c) => t(`ops:withdrawals.${c}`)), t('ops:table.actions')]}
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
              <WithdrawalResult w={w} />
            </td>
            <td>
              <RowActions actions={actions.forRow(w, paidOnChain(w.coinCode))} />
            </td>
          </tr>
        )}
      />
      {/* below the queue: the queue is what an operator acts on, custody what they check */}
      <CustodyPanel />
      {actions.dialog}
    </>
  );
}
