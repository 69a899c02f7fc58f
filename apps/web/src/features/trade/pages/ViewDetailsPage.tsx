import type { SellListingDetail } from '@p2p/contract';
import { listingActionsFor } from '@p2p/contract/enums.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { ConfirmModal } from '../../../components/ui/ConfirmModal';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/errors';
import { notify } from '../../../lib/toast';
import { closeListing } from '../api/close-listing';
import { myListingQueryOptions } from '../api/get-my-listing';
import { orderQueries } from '../api/order-queries';
import { ListingDetailCard, OrderDetailCard } from '../components/DetailCards';
import { DetailSkeleton } from '../components/DetailSkeleton';
import { ListingEditSheet } from '../components/ListingEditSheet';
import { OrderChat } from '../components/OrderChat';
import { BuyerOrderLive, SellerOrderLive } from '../components/OrderViews';
import type { DetailType } from '../components/StatusBadge';

const TYPES: readonly DetailType[] = ['purchase', 'sell-register', 'sell-history'];

/**
 * /view_details?id&type (SPEC §2, §4; DECISIONS §11). A purchase or a sell-history order shows where it
 * stands, what to do next and the buttons the transition table allows (OrderViews); a sell registration
 * keeps its cancel (close) with the SPEC confirm. A load failure returns to /myinfo.
 */
export default function ViewDetailsPage() {
  const { t } = useTranslation('trade');
  const [params] = useSearchParams();
  const id = Number.parseInt(params.get('id') ?? '', 10);
  const type = TYPES.find((x) => x === (params.get('type') ?? ''));
  const valid = type !== undefined && Number.isSafeInteger(id) && id > 0;
  if (!valid) return <Navigate to={paths.myInfo.path} replace />;
  return (
    <Page title={t('details.title')}>
      {type === 'purchase' ? (
        <PurchaseDetail id={id} />
      ) : type === 'sell-history' ? (
        <SellDetail id={id} />
      ) : (
        <ListingDetail id={id} />
      )}
    </Page>
  );
}

/** A failed load (not the member's, gone) returns to /myinfo (SPEC §8). */
function useBackOnError(failed: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (failed) navigate(paths.myInfo.path, { replace: true });
  }, [failed, navigate]);
}

/** SPEC §4: after a cancel (or the seller's reject) the member returns to /myinfo. */
function useToMyInfo() {
  const navigate = useNavigate();
  return () => navigate(paths.myInfo.path, { replace: true });
}

function PurchaseDetail({ id }: { id: number }) {
  const q = useQuery(orderQueries.buyer(id));
  const toMyInfo = useToMyInfo();
  useBackOnError(q.isError && !q.data);
  if (!q.data) return <DetailSkeleton kind="buyer" />;
  return (
    <>
      <BuyerOrderLive orderId={id} afterCancel={toMyInfo} />
      <OrderChat orderId={id} side="buyer" />
      <OrderDetailCard order={q.data} type="purchase" />
    </>
  );
}

function SellDetail({ id }: { id: number }) {
  const q = useQuery(orderQueries.seller(id));
  const toMyInfo = useToMyInfo();
  useBackOnError(q.isError && !q.data);
  if (!q.data) return <DetailSkeleton kind="seller" />;
  return (
    <>
      <SellerOrderLive order={q.data} onMoved={() => void q.refetch()} afterCancel={toMyInfo} />
      <OrderChat orderId={id} side="seller" />
      <OrderDetailCard order={q.data} type="sell-history" />
    </>
  );
}

/**
 * A sell registration: its receipt, the edit of price and quantities while it is active (PATCH
 * /api/v1/sell-listings/{id}) and the SPEC §4 cancel (the listing closes, unallocated escrow returns).
 */
function ListingDetail({ id }: { id: number }) {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(myListingQueryOptions(id));
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  useBackOnError(q.isError);
  const listing: SellListingDetail | undefined = q.data;
  if (!listing) return <DetailSkeleton kind="listing" />;
  const cancel = async () => {
    setBusy(true);
    try {
      await closeListing(id);
      notify.success(t('details.cancelled.sell-register'));
      await qc.invalidateQueries();
      navigate(paths.myInfo.path, { replace: true });
    } catch (err) {
      notify.error(errorText(err, 'trade:details.cancelFailed', 'trade'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <ListingDetailCard listing={listing} />
      {listingActionsFor(listing.status, 'seller').includes('close') && (
        <Button block variant="secondary" onClick={() => setEditing(true)} data-testid="detail-edit">
          {t('edit.open')}
        </Button>
      )}
      <ListingEditSheet listing={listing} open={editing} onClose={() => setEditing(false)} />
      {listingActionsFor(listing.status, 'seller').includes('close') && (
        <Button
          block
          variant="outline"
          disabled={busy}
          onClick={() => setConfirming(true)}
          data-testid="detail-cancel"
        >
          {t('details.cancel')}
        </Button>
      )}
      <ConfirmModal
        open={confirming}
        title={t('details.confirmTitle')}
        message={t('details.confirmMessage')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void cancel();
        }}
      />
    </>
  );
}
