import type { BuyOrderDetail, SellListingDetail, SellOrderDetail } from '@p2p/contract';
import { isActionable } from '@p2p/contract/enums.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { ConfirmModal } from '../../../components/ui/ConfirmModal';
import { paths } from '../../../config/paths';
import { notify } from '../../../lib/toast';
import { cancelBuyOrder } from '../api/cancel-buy-order';
import { closeListing } from '../api/close-listing';
import { getBuyOrder } from '../api/get-buy-order';
import { getMySellListing } from '../api/get-my-listing';
import { getSellOrder } from '../api/get-sell-order';
import { rejectBuyOrder } from '../api/reject-buy-order';
import { ListingDetailCard, OrderDetailCard } from '../components/DetailCards';
import type { DetailType } from '../components/StatusBadge';
import { tradeErrorText } from '../error-text';
import s from '../trade.module.css';

const TYPES: readonly DetailType[] = ['purchase', 'sell-register', 'sell-history'];

type Detail =
  | { type: DetailType; order: BuyOrderDetail | SellOrderDetail }
  | { type: DetailType; listing: SellListingDetail };

async function loadDetail(type: DetailType, id: number): Promise<Detail> {
  if (type === 'purchase') return { type, order: await getBuyOrder(id) };
  if (type === 'sell-history') return { type, order: await getSellOrder(id) };
  return { type, listing: await getMySellListing(id) };
}

/** The cancel call of each type: buyer cancel, seller reject (sell history), listing close (registrations). */
function cancelCall(type: DetailType, id: number): Promise<unknown> {
  if (type === 'purchase') return cancelBuyOrder(id);
  if (type === 'sell-history') return rejectBuyOrder(id);
  return closeListing(id);
}

/**
 * /view_details?id&type (SPEC §2, §4): the receipt of a purchase, sell registration or sell-history
 * order; cancel (confirm 거래를 취소하시겠습니까?) and, for sell history, complete -> /proceed. Buttons only
 * while the status is actionable. A load failure returns to /myinfo.
 */
export default function ViewDetailsPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const id = Number.parseInt(params.get('id') ?? '', 10);
  const rawType = params.get('type') ?? '';
  const type = TYPES.find((x) => x === rawType);
  const valid = type !== undefined && Number.isSafeInteger(id) && id > 0;
  const detail = useQuery({
    queryKey: ['detail', type, id],
    queryFn: () => loadDetail(type ?? 'purchase', id),
    enabled: valid,
    retry: false,
  });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (detail.isError) navigate(paths.myInfo.path, { replace: true });
  }, [detail.isError, navigate]);

  if (!valid) return <Navigate to={paths.myInfo.path} replace />;
  const data = detail.data;
  const status = data ? ('order' in data ? data.order.status : data.listing.status) : null;
  const actionable = status !== null && isActionable(status);

  const cancel = async () => {
    setBusy(true);
    try {
      await cancelCall(type, id);
      notify.success(t(`details.cancelled.${type}`));
      await qc.invalidateQueries();
      navigate(paths.myInfo.path, { replace: true });
    } catch (err) {
      notify.error(tradeErrorText(err, 'trade:details.cancelFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('details.title')}>
      {!data ? (
        <div className={s.muted} style={{ textAlign: 'center', padding: 24 }}>
          {t('list.loading')}
        </div>
      ) : 'order' in data ? (
        <OrderDetailCard order={data.order} type={data.type} />
      ) : (
        <ListingDetailCard listing={data.listing} />
      )}
      {actionable && (
        <div className={type === 'sell-history' ? s.buttons : undefined}>
          <Button
            block
            variant="outline"
            disabled={busy}
            onClick={() => setConfirming(true)}
            data-testid="detail-cancel"
          >
            {t('details.cancel')}
          </Button>
          {type === 'sell-history' && (
            <Button
              block
              disabled={busy}
              onClick={() => navigate(paths.proceed.path, { state: { orderId: id } })}
              data-testid="detail-complete"
            >
              {t('details.complete')}
            </Button>
          )}
        </div>
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
    </Page>
  );
}
