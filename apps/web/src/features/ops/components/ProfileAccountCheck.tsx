import { useTranslation } from 'react-i18next';
import type { OpsListing } from '../api/listings';
import s from '../ops.module.css';

/**
 * The seller's profile bank account beside a listing's pay-in account (DECISIONS §13 as amended): a red
 * badge when the listing pays elsewhere or the profile has no account, so the operator checks with the
 * seller before approving; a green one when they are the same. `prefixed` starts the account with
 * "Profile:" where no label says so (the table's cell).
 */
export function ProfileAccountCheck({
  listing,
  prefixed = false,
}: {
  listing: OpsListing;
  prefixed?: boolean;
}) {
  const { t } = useTranslation(['ops']);
  const p = listing.profileAccount;
  const differs = listing.accountDiffersFromProfile;
  const account =
    p.bankName !== null && p.accountNo !== null
      ? t('ops:listings.profileAccountIs', {
          bank: p.bankName,
          account: p.accountNo,
          holder: p.accountHolder,
        })
      : t('ops:listings.profileAccountNone');
  return (
    <div className={s.accountCheck} data-testid={`profile-account-${listing.listingId}`}>
      <span className={prefixed ? s.sub : undefined}>
        {prefixed ? t('ops:listings.profilePrefix', { account }) : account}
      </span>
      <AccountBadge differs={differs} />
    </div>
  );
}

/** The red "differs" or green "same" pill of a listing's pay-in account against the profile's. */
export function AccountBadge({ differs, short = false }: { differs: boolean; short?: boolean }) {
  const { t } = useTranslation(['ops']);
  if (differs) {
    return (
      <span className={`${s.badge} ${s.badge_bad}`} data-testid="account-differs">
        ⚠ {t(short ? 'ops:listings.accountDiffersShort' : 'ops:listings.accountDiffers')}
      </span>
    );
  }
  if (short) return null;
  return (
    <span className={`${s.badge} ${s.badge_ok}`} data-testid="account-matches">
      {t('ops:listings.accountMatches')}
    </span>
  );
}
