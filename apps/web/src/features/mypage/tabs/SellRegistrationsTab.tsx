import type { MySellListing } from '@p2p/contract';
import { type AvailabilityMove, listingActionsFor } from '@p2p/contract/enums.ts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmModal } from '../../../components/ui/ConfirmModal';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { formatQty, formatWon, minQtyOf } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useSellRegistrations } from '../../trade';
import { useListingAvailability } from '../api/set-availability';
import { HistoryItem } from '../components/HistoryItem';
import { HistoryList } from '../components/HistoryList';
import m from '../mypage.module.css';

/** Listings that sell nothing any more: their quantity line reads 판매 종료. */
const ENDED: readonly string[] = ['CLOSED', 'REJECTED'];

/** A listing's rows: its quantity range (판매 종료 once ended, not "1,000 - 0 TRX") and unit price. */
function rowsOf(l: MySellListing, t: TFunction<'mypage'>) {
  const range = `${formatQty(l.minQty)} - ${formatQty(minQtyOf(l.maxQty, l.remainingQty))} ${l.coinCode}`;
  return [
    { label: t('history.range'), value: ENDED.includes(l.status) ? t('history.ended') : range },
    { label: t('history.unitPrice'), value: t('trade:won', { value: formatWon(l.unitPriceKrw) }) },
  ];
}

/**
 * The /myinfo sell registrations tab (SPEC §2): the member's listings in every status, infinite scroll. An
 * OPEN listing can be paused (자리 비움, after a confirm saying what it does) and a PAUSED one resumed
 * (다시 판매하기), DECISIONS §4 and §12. A create button above the list leads to /sell.
 */
export function SellRegistrationsTab() {
  const { t } = useTranslation('mypage');
  const navigate = useNavigate();
  const q = useSellRegistrations();
  const availability = useListingAvailability();
  const [confirmPause, setConfirmPause] = useState<number | null>(null);

  const move = (listingId: number, to: AvailabilityMove) =>
    availability.mutate(
      { listingId, move: to },
      {
        onSuccess: () => notify.success(t(to === 'pause' ? 'availability.paused' : 'availability.resumed')),
        onError: (err) =>
          notify.error(
            err instanceof ApiError && err.code === 'INVALID_STATE'
              ? t('availability.stale')
              : errorText(err, 'mypage:availability.failed', 'trade'),
          ),
      },
    );
  const busy = (id: number) => availability.isPending && availability.variables?.listingId === id;

  const actionOf = (l: MySellListing) => {
    const allowed = listingActionsFor(l.status, 'seller');
    if (allowed.includes('pause'))
      return (
        <Button
          variant="secondary"
          size="small"
          block
          disabled={busy(l.listingId)}
          onClick={() => setConfirmPause(l.listingId)}
          data-testid="listing-pause"
        >
          {t('availability.pause')}
        </Button>
      );
    if (allowed.includes('resume'))
      return (
        <Button
          size="small"
          block
          disabled={busy(l.listingId)}
          onClick={() => move(l.listingId, 'resume')}
          data-testid="listing-resume"
        >
          {t('availability.resume')}
        </Button>
      );
    return undefined;
  };

  return (
    <>
      <Button block onClick={() => navigate(paths.sell.path)} data-testid="sell-register-create">
        {t('history.createListing')}
      </Button>
      <HistoryList
        query={q}
        keyOf={(l) => l.listingId}
        renderItem={(l) => (
          <HistoryItem
            id={l.listingId}
            type="sell-register"
            coin={l.coinCode}
            status={l.status}
            createdAt={l.createdAt}
            rows={rowsOf(l, t)}
            note={
              l.status === 'PAUSED' ? (
                <p className={m.note} data-testid="listing-paused-note">
                  {t('trade:statusNote.PAUSED')}
                </p>
              ) : undefined
            }
            action={actionOf(l)}
          />
        )}
        empty={t('history.emptySellRegister')}
        testId="sell-register-list"
      />
      <ConfirmModal
        open={confirmPause !== null}
        title={t('availability.confirmTitle')}
        message={t('availability.confirmMessage')}
        confirmLabel={t('availability.confirmYes')}
        cancelLabel={t('availability.confirmNo')}
        onCancel={() => setConfirmPause(null)}
        onConfirm={() => {
          if (confirmPause !== null) move(confirmPause, 'pause');
          setConfirmPause(null);
        }}
      />
    </>
  );
}
