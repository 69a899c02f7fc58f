import type { Coin } from '@p2p/contract/enums.ts';
import { ACTIVE_LISTING_STATUSES } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSellRegistrations } from '../api/get-sell-registrations';
import s from '../trade.module.css';

/**
 * The member's active listing of `coin` (PENDING_REVIEW, OPEN or PAUSED) among their newest listings, or
 * undefined: DECISIONS §4 allows one active listing per coin (409 DUPLICATE_SELLER otherwise).
 */
export function useActiveListingOf(coin: Coin) {
  const q = useSellRegistrations();
  const all = q.data?.pages.flatMap((p) => p.list) ?? [];
  return all.find(
    (l) => l.coinCode === coin && (ACTIVE_LISTING_STATUSES as readonly string[]).includes(l.status),
  );
}

/**
 * Said before the form is filled: the member already sells this coin, one listing per coin, with a link to
 * that listing (where its price and quantities can be edited).
 */
export function ExistingListingNotice({ coin, listingId }: { coin: Coin; listingId: number }) {
  const { t } = useTranslation('trade');
  return (
    <div className={s.existing} role="note" data-testid="sell-existing">
      <p style={{ margin: '0 0 8px' }}>{t('sell.existing.text', { coin })}</p>
      <Link
        to={`${paths.viewDetails.path}?id=${listingId}&type=sell-register`}
        className={s.inlineLink}
        data-testid="sell-existing-link"
      >
        {t('sell.existing.link')}
      </Link>
    </div>
  );
}
