import { LISTING_STATUSES, type ListingStatus, listingActionsFor } from '@p2p/contract/enums.ts';
import { formatKrw } from '@p2p/contract/money.ts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../../lib/format-time';
import { approveListing, type OpsListing, rejectListing, useOpsListings } from '../api/listings';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { AccountBadge, ProfileAccountCheck } from '../components/ProfileAccountCheck';
import { RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

const ALL = 'ALL';

function statusParam(v: string | null): ListingStatus | undefined {
  if (v === ALL) return undefined;
  return (LISTING_STATUSES as readonly string[]).includes(v ?? '') ? (v as ListingStatus) : 'PENDING_REVIEW';
}

/**
 * /ops/listings: listings by status (pending review first). A pending listing is approved (-> OPEN, in the
 * trade list) or rejected with a reason (escrow back to the seller), each after confirmation (DECISIONS §4, §8).
 * The seller's profile account sits beside the listing's pay-in account, flagged when they differ
 * (DECISIONS §13 as amended), in the row and in the confirmation.
 */
export default function ListingsPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const pager = useCursorPager(status ?? ALL);
  const listings = useOpsListings(status, pager.cursor);
  const { confirm, dialog } = useConfirmAction();

  const details = (l: OpsListing) => [
    { label: t('ops:listings.id'), value: `#${l.listingId}` },
    { label: t('ops:listings.seller'), value: `${l.sellerLoginId} (#${l.sellerId})` },
    { label: t('ops:listings.coin'), value: l.coinCode },
    { label: t('ops:listings.qty'), value: `${l.minQty} – ${l.maxQty} ${l.coinCode}` },
    { label: t('ops:listings.price'), value: `${formatKrw(l.unitPriceKrw)} ${t('ops:won')}` },
    { label: t('ops:listings.bankListing'), value: `${l.bankName} ${l.accountNo} (${l.accountHolder})` },
    { label: t('ops:listings.profileAccount'), value: <ProfileAccountCheck listing={l} /> },
    { label: t('ops:listings.address'), value: <Mono>{l.address}</Mono> },
  ];
  const accountWarning = (l: OpsListing) =>
    l.accountDiffersFromProfile ? t('ops:listings.accountDiffersNote') : undefined;
  const approve = (l: OpsListing) =>
    confirm({
      title: t('ops:listings.approveTitle', { id: l.listingId }),
      details: details(l),
      note: t('ops:listings.approveNote'),
      warning: accountWarning(l),
      confirmLabel: t('ops:listings.approve'),
      tone: 'primary',
      run: () => approveListing(l.listingId).then(() => t('ops:listings.approved', { id: l.listingId })),
    });
  const reject = (l: OpsListing) =>
    confirm({
      title: t('ops:listings.rejectTitle', { id: l.listingId }),
      details: details(l),
      note: t('ops:listings.rejectNote', { qty: l.maxQty, coin: l.coinCode }),
      warning: accountWarning(l),
      confirmLabel: t('ops:listings.reject'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) =>
        rejectListing(l.listingId, v.reason ?? '').then(() =>
          t('ops:listings.rejected', { id: l.listingId }),
        ),
    });

  const options = [...LISTING_STATUSES, ALL].map((v) => ({ value: v, label: t(`ops:status.${v}`) }));
  return (
    <>
      <PageTitle title={t('ops:listings.title')} sub={t('ops:listings.sub')}>
        <FilterTabs
          label={t('ops:filters.status')}
          options={options}
          value={status ?? ALL}
          onChange={(v) => setParams({ status: v }, { replace: true })}
        />
      </PageTitle>
      <PagedTable
        testId="ops-listings"
        columns={[
          t('ops:listings.id'),
          t('ops:listings.seller'),
          t('ops:listings.coin'),
          t('ops:listings.price'),
          t('ops:listings.qty'),
          t('ops:listings.bank'),
          t('ops:listings.status'),
          t('ops:table.actions'),
        ]}
        list={listings}
        pager={pager}
        row={(l) => (
          <tr key={l.listingId} data-testid={`listing-row-${l.listingId}`}>
            <td className={s.num}>
              <strong>#{l.listingId}</strong>
              <div className={s.sub}>{formatTime(l.createdAt)}</div>
              {/* in the first column, so a phone shows it before the table is scrolled */}
              <AccountBadge differs={l.accountDiffersFromProfile} short />
            </td>
            <td>
              {l.sellerLoginId}
              <div className={s.sub}>#{l.sellerId}</div>
            </td>
            <td>{l.coinCode}</td>
            <td className={s.num}>{formatKrw(l.unitPriceKrw)}</td>
            <td className={s.num}>
              {l.minQty} – {l.maxQty}
              <div className={s.sub}>{t('ops:listings.remainingQty', { qty: l.remainingQty })}</div>
            </td>
            <td className={s.nowrap}>
              {l.bankName}
              <div className={s.sub}>
                {l.accountNo} · {l.accountHolder}
              </div>
              <ProfileAccountCheck listing={l} prefixed />
            </td>
            <td>
              <StatusBadge status={l.status} />
              {l.rejectReason && <div className={s.sub}>{l.rejectReason}</div>}
            </td>
            <td>
              {listingActionsFor(l.status, 'operator').includes('approve') && (
                <RowActions
                  actions={[
                    {
                      label: t('ops:listings.approve'),
                      testId: `approve-${l.listingId}`,
                      onClick: () => approve(l),
                    },
                    {
                      label: t('ops:listings.reject'),
                      testId: `reject-${l.listingId}`,
                      onClick: () => reject(l),
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
