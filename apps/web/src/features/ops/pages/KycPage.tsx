import { KYC_DOCUMENT_STATUSES, type KycDocumentStatus, type OpsKycDocument } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/format-time';
import { approveKycDocument, rejectKycDocument, useOpsKyc } from '../api/kyc';
import { FilterTabs } from '../components/FilterTabs';
import { KycDocumentImage } from '../components/KycDocumentImage';
import { PagedTable } from '../components/PagedTable';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

const ALL = 'ALL';

function statusParam(v: string | null): KycDocumentStatus | undefined {
  if (v === ALL) return undefined;
  return (KYC_DOCUMENT_STATUSES as readonly string[]).includes(v ?? '')
    ? (v as KycDocumentStatus)
    : 'PENDING';
}

/**
 * /ops/kyc: the ID document review queue (DECISIONS §19), pending first. Approving or rejecting (with the
 * reason the member sees) opens a confirmation that shows the decrypted document beside the member's
 * account name and verified identity; the API audits each viewing and each decision.
 */
export default function KycPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const pager = useCursorPager(status ?? ALL);
  const docs = useOpsKyc(status);
  const { confirm, dialog } = useConfirmAction();

  const details = (d: OpsKycDocument) => [
    { label: t('ops:kyc.member'), value: `${d.loginId} · ${d.nickname} (#${d.memberId})` },
    { label: t('ops:kyc.accountName'), value: d.name },
    { label: t('ops:kyc.verifiedName'), value: d.verifiedName ?? '-' },
    { label: t('ops:kyc.birthDate'), value: d.birthDate ?? '-' },
    { label: t('ops:kyc.document'), value: <KycDocumentImage id={d.id} /> },
  ];
  const approve = (d: OpsKycDocument) =>
    confirm({
      title: t('ops:kyc.approveTitle', { id: d.id }),
      details: details(d),
      note: t('ops:kyc.approveNote'),
      confirmLabel: t('ops:kyc.approve'),
      tone: 'primary',
      run: () => approveKycDocument(d.id).then(() => t('ops:kyc.approved', { id: d.id })),
    });
  const reject = (d: OpsKycDocument) =>
    confirm({
      title: t('ops:kyc.rejectTitle', { id: d.id }),
      details: details(d),
      note: t('ops:kyc.rejectNote'),
      confirmLabel: t('ops:kyc.reject'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) => rejectKycDocument(d.id, v.reason ?? '').then(() => t('ops:kyc.rejected', { id: d.id })),
    });

  const options = [...KYC_DOCUMENT_STATUSES, ALL].map((v) => ({ value: v, label: t(`ops:status.${v}`) }));
  return (
    <>
      <PageTitle title={t('ops:kyc.title')} sub={t('ops:kyc.sub')}>
        <FilterTabs
          label={t('ops:filters.status')}
          options={options}
          value={status ?? ALL}
          onChange={(v) => setParams({ status: v }, { replace: true })}
        />
      </PageTitle>
      <PagedTable
        testId="ops-kyc"
        columns={[
          t('ops:kyc.id'),
          t('ops:kyc.member'),
          t('ops:kyc.names'),
          t('ops:kyc.level'),
          t('ops:kyc.status'),
          t('ops:table.actions'),
        ]}
        list={docs}
        pager={pager}
        row={(d) => <KycRow key={d.id} d={d} onApprove={approve} onReject={reject} />}
      />
      {dialog}
    </>
  );
}

/** One document of the queue: who uploaded it, the account and verified names, its state and actions. */
function KycRow({
  d,
  onApprove,
  onReject,
}: {
  d: OpsKycDocument;
  onApprove: (d: OpsKycDocument) => void;
  onReject: (d: OpsKycDocument) => void;
}) {
  const { t } = useTranslation(['ops']);
  return (
    <tr data-testid={`kyc-row-${d.id}`}>
      <td className={s.num}>
        <strong>#{d.id}</strong>
        <div className={s.sub}>{formatTime(d.createdAt)}</div>
      </td>
      <td>
        {d.loginId}
        <div className={s.sub}>
          {d.nickname} · #{d.memberId}
        </div>
      </td>
      <td>
        {d.name}
        <div className={s.sub}>
          {t('ops:kyc.verifiedName')}: {d.verifiedName ?? '-'}
        </div>
      </td>
      <td className={s.num}>{d.kycLevel}</td>
      <td>
        <StatusBadge status={d.status} />
        {d.reason && <div className={s.sub}>{d.reason}</div>}
      </td>
      <td>
        {d.status === 'PENDING' && (
          <RowActions
            actions={[
              { label: t('ops:kyc.approve'), testId: `kyc-approve-${d.id}`, onClick: () => onApprove(d) },
              {
                label: t('ops:kyc.reject'),
                testId: `kyc-reject-${d.id}`,
                onClick: () => onReject(d),
                outline: true,
              },
            ]}
          />
        )}
      </td>
    </tr>
  );
}
